import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { AppConfig } from '@app/config';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AccessTokenEntity, CreateAccessTokenUseCase } from '@app/identity';
import { MembersRepository } from '../repositories/members.repository';
import { CreateUserUseCase } from './create-user.use-case';

export interface CreateResourceAccessTokenCommand {
  resourceType: 'project' | 'group';
  resourceId: number;
  name: string;
  scopes: string[];
  accessLevel: number;
  expiresAt?: string | null;
  description?: string | null;
  actorId: number;
  /** Access level of the creator on the resource: nobody grants more than they have. */
  actorAccessLevel: number;
}

/**
 * Project and group access tokens, as in GitLab: a bot user is created, made a member of
 * the resource with the token's access level, and owns the token.
 */
@Injectable()
export class CreateResourceAccessTokenUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly createUser: CreateUserUseCase,
    private readonly createToken: CreateAccessTokenUseCase,
    private readonly members: MembersRepository,
  ) {}

  async execute(command: CreateResourceAccessTokenCommand): Promise<{ token: AccessTokenEntity; secret: string }> {
    if (command.scopes.includes('sudo')) throw DomainError.invalid({ scopes: ['sudo is not allowed for resource access tokens'] });
    if (command.accessLevel > command.actorAccessLevel)
      throw DomainError.badRequest(`access_level cannot be higher than your own (${command.actorAccessLevel})`);
    const host = new URL(this.config.http.externalUrl).hostname;
    const suffix = randomBytes(4).toString('hex');
    const username = `${command.resourceType}_${command.resourceId}_bot_${suffix}`;
    return this.dataSource.transaction(async (tx) => {
      const bot = await this.createUser.execute(
        {
          email: `${username}@noreply.${host}`,
          name: command.name,
          username,
          userType: command.resourceType === 'project' ? 'project_bot' : 'group_bot',
          canCreateGroup: false,
          projectsLimit: 0,
          actorId: command.actorId,
        },
        tx,
      );
      await this.members.insert(tx, {
        sourceType: command.resourceType === 'project' ? 'project' : 'namespace',
        sourceId: command.resourceId,
        userId: bot.id,
        accessLevel: command.accessLevel,
        createdById: command.actorId,
        expiresAt: command.expiresAt ? command.expiresAt.slice(0, 10) : null,
      });
      return this.createToken.execute(
        {
          userId: bot.id,
          name: command.name,
          scopes: command.scopes,
          expiresAt: command.expiresAt,
          description: command.description,
          resourceType: command.resourceType,
          resourceId: command.resourceId,
          accessLevel: command.accessLevel,
          actorId: command.actorId,
        },
        tx,
      );
    });
  }
}
