import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { UsersRepository } from '@app/identity';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { AccessUser, canManageMemberLevel } from '../access/access-policy';
import { ACCESS_LEVELS } from '../entities/member.entity';
import { MemberSource, MembersRepository } from '../repositories/members.repository';
import { MemberWithUser } from './add-member.use-case';
import { checkAgainstInherited, checkMemberAccessLevel, memberEvent, parseExpiresAt } from './member-rules';

export interface UpdateMemberCommand {
  actor: AccessUser;
  actorAccessLevel: number;
  source: MemberSource;
  userId: number;
  accessLevel: number;
  /** undefined keeps the date; null clears it. */
  expiresAt?: string | null;
}

/**
 * Changes a membership's level or expiry; records `user_update_for_team` / `user_update_for_group`.
 * Only owners touch the Owner role; the last owner of a group and the owner of a personal
 * project cannot be demoted (403, as GitLab).
 */
@Injectable()
export class UpdateMemberUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly members: MembersRepository,
    private readonly users: UsersRepository,
  ) {}

  async execute(command: UpdateMemberCommand): Promise<MemberWithUser> {
    checkMemberAccessLevel(command.source, command.accessLevel);
    const expiresAt = parseExpiresAt(command.expiresAt);
    return this.dataSource.transaction(async (tx) => {
      const member = await this.members.findDirect(command.source, command.userId, tx);
      if (!member) throw DomainError.notFound('Member');
      if (!canManageMemberLevel(command.actorAccessLevel, member.accessLevel, command.accessLevel)) throw DomainError.forbidden();
      const demoted = member.accessLevel >= ACCESS_LEVELS.OWNER && command.accessLevel < ACCESS_LEVELS.OWNER;
      const { source } = command;
      if (source.kind === 'project' && source.namespace.kind === 'user' && source.namespace.ownerId === member.userId) throw DomainError.forbidden();
      if (demoted && source.kind === 'group' && (await this.members.countOtherOwners(source.group, member.userId, tx)) === 0) throw DomainError.forbidden();
      checkAgainstInherited(command.accessLevel, await this.members.findInherited(source, member.userId, tx));

      await this.members.update(tx, member.id, { accessLevel: command.accessLevel, ...(expiresAt !== undefined ? { expiresAt } : {}) });
      const updated = await this.members.getByIdIn(tx, member.id);
      const user = await this.users.findByIdOrFail(member.userId, tx);
      await this.outbox.append(tx, memberEvent('update', command.actor.id, source, updated, user));
      return { member: updated, user };
    });
  }
}
