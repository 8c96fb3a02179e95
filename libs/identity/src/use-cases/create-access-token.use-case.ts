import { Injectable } from '@nestjs/common';
import { DomainError, SCOPES } from '@app/api';
import { OutboxService } from '@app/messaging';
import { SettingsReader } from '@app/settings';
import { DataSource, EntityManager } from 'typeorm';
import { AccessTokenEntity } from '../entities/access-token.entity';
import { AccessTokensRepository } from '../access-tokens/access-tokens.repository';
import { UsersRepository } from '../users/users.repository';
import { digestToken, generateAccessToken } from '../tokens/token-digest';
import { IDENTITY_EVENTS } from '../events/identity.events';

export interface CreateAccessTokenCommand {
  userId: number;
  name: string;
  scopes: string[];
  expiresAt?: string | null;
  description?: string | null;
  impersonation?: boolean;
  resourceType?: 'personal' | 'project' | 'group';
  resourceId?: number | null;
  accessLevel?: number | null;
  /** Use this exact secret (bootstrap of INITIAL_ROOT_TOKEN); otherwise one is generated. */
  secret?: string;
  actorId: number | null;
}

/** Creates an access token and returns the secret once; only its digest is stored. */
@Injectable()
export class CreateAccessTokenUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    private readonly tokens: AccessTokensRepository,
    private readonly outbox: OutboxService,
    private readonly settings: SettingsReader,
  ) {}

  async execute(command: CreateAccessTokenCommand, manager?: EntityManager): Promise<{ token: AccessTokenEntity; secret: string }> {
    if (command.scopes.length === 0) throw DomainError.invalid({ scopes: ["can't be blank"] });
    const unknown = command.scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
    if (unknown.length) throw DomainError.invalid({ scopes: [`contains an invalid scope: ${unknown.join(', ')}`] });
    if (command.expiresAt) {
      const date = command.expiresAt.slice(0, 10);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date))) throw DomainError.invalid({ expires_at: ['is not a valid date'] });
      if (date <= new Date().toISOString().slice(0, 10)) throw DomainError.invalid({ expires_at: ['must be in the future'] });
    }
    // New tokens start with the instance's `personal_access_token_prefix`.
    const secret = command.secret ?? generateAccessToken((await this.settings.get()).string('personal_access_token_prefix') ?? undefined);
    const run = async (tx: EntityManager) => {
      const user = await this.users.findById(command.userId, tx);
      if (!user) throw DomainError.notFound('User');
      const inserted = await this.tokens.insert(tx, {
        userId: command.userId,
        name: command.name,
        description: command.description ?? null,
        tokenDigest: digestToken(secret),
        scopes: [...new Set(command.scopes)],
        expiresAt: command.expiresAt ? command.expiresAt.slice(0, 10) : null,
        impersonation: command.impersonation ?? false,
        resourceType: command.resourceType ?? 'personal',
        resourceId: command.resourceId ?? null,
        accessLevel: command.accessLevel ?? null,
      });
      await this.outbox.append(tx, {
        type: IDENTITY_EVENTS.ACCESS_TOKEN_CREATE,
        actor: command.actorId,
        target: { type: 'access_token', id: inserted.id, title: inserted.name },
        data: {
          token_id: inserted.id,
          user_id: user.id,
          name: inserted.name,
          scopes: inserted.scopes,
          resource_type: inserted.resourceType,
          resource_id: inserted.resourceId,
          impersonation: inserted.impersonation,
        },
      });
      return inserted;
    };
    const token = manager ? await run(manager) : await this.dataSource.transaction(run);
    const reloaded = await this.tokens.reload(token.id, manager);
    return { token: reloaded, secret };
  }
}
