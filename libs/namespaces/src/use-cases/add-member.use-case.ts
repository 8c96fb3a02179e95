import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { UserEntity, UsersRepository } from '@app/identity';
import { uniqueViolation } from '@app/database';
import { OutboxService } from '@app/messaging';
import { DataSource, EntityManager } from 'typeorm';
import { AccessUser, canManageMemberLevel } from '../access/access-policy';
import { MemberEntity } from '../entities/member.entity';
import { MemberSource, MembersRepository, sourceKey } from '../repositories/members.repository';
import { checkAgainstInherited, checkMemberAccessLevel, memberEvent, parseExpiresAt } from './member-rules';

export interface AddMemberCommand {
  actor: AccessUser;
  /** The actor's effective level on the source (from the route's access check). */
  actorAccessLevel: number;
  source: MemberSource;
  /** `user_id` or `username`. */
  user: { id: number } | { username: string };
  accessLevel: number;
  expiresAt?: string | null;
}

export interface MemberWithUser {
  member: MemberEntity;
  user: UserEntity;
}

/** Adds a user to a project or group; records `user_add_to_team` / `user_add_to_group`. */
@Injectable()
export class AddMemberUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly members: MembersRepository,
    private readonly users: UsersRepository,
  ) {}

  async execute(command: AddMemberCommand): Promise<MemberWithUser> {
    checkMemberAccessLevel(command.source, command.accessLevel);
    const expiresAt = parseExpiresAt(command.expiresAt) ?? null;
    if (!canManageMemberLevel(command.actorAccessLevel, null, command.accessLevel)) throw DomainError.forbidden();
    try {
      return await this.dataSource.transaction((tx) => this.add(tx, command, expiresAt));
    } catch (error) {
      if (uniqueViolation(error) === 'members_source_user_key') throw DomainError.conflict('Member already exists');
      throw error;
    }
  }

  private async add(tx: EntityManager, command: AddMemberCommand, expiresAt: string | null): Promise<MemberWithUser> {
    const user = await this.findUser(tx, command.user);
    if (!user) throw DomainError.notFound('User');
    if (await this.members.findDirect(command.source, user.id, tx)) throw DomainError.conflict('Member already exists');
    checkAgainstInherited(command.accessLevel, await this.members.findInherited(command.source, user.id, tx));

    const key = sourceKey(command.source);
    // An expired membership is gone for every purpose; its row makes way for the new one.
    await this.members.deleteOfUserIn(tx, key, user.id);
    const member = await this.members.add(tx, { ...key, userId: user.id, accessLevel: command.accessLevel, createdById: command.actor.id, expiresAt });
    await this.outbox.append(tx, memberEvent('add', command.actor.id, command.source, member, user));
    return { member: await this.members.getByIdIn(tx, member.id), user };
  }

  private findUser(tx: EntityManager, ref: AddMemberCommand['user']): Promise<UserEntity | null> {
    if ('id' in ref) return this.users.findById(ref.id, tx);
    return this.users.findByUsernameIn(tx, ref.username);
  }
}
