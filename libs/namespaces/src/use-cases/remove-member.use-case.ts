import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { UsersRepository } from '@app/identity';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { AccessUser, canManageMemberLevel } from '../access/access-policy';
import { ACCESS_LEVELS } from '../entities/member.entity';
import { MemberSource, MembersRepository } from '../repositories/members.repository';
import { MANAGE_MEMBERS_LEVEL, memberEvent } from './member-rules';

export interface RemoveMemberCommand {
  actor: AccessUser;
  actorAccessLevel: number;
  source: MemberSource;
  userId: number;
}

/**
 * Removes a direct membership; records `user_remove_from_team` / `user_remove_from_group`.
 * Maintainers (projects) or owners (groups) remove others; any member may leave. Only owners
 * remove an owner; a group's last owner and a personal project's owner stay (403).
 */
@Injectable()
export class RemoveMemberUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly members: MembersRepository,
    private readonly users: UsersRepository,
  ) {}

  async execute(command: RemoveMemberCommand): Promise<void> {
    const { source } = command;
    await this.dataSource.transaction(async (tx) => {
      const member = await this.members.findDirect(source, command.userId, tx);
      if (!member) throw DomainError.notFound('Member');
      const leaving = member.userId === command.actor.id;
      if (!leaving && command.actorAccessLevel < MANAGE_MEMBERS_LEVEL[source.kind]) throw DomainError.forbidden();
      if (!leaving && !canManageMemberLevel(command.actorAccessLevel, member.accessLevel, null)) throw DomainError.forbidden();
      if (source.kind === 'project' && source.namespace.kind === 'user' && source.namespace.ownerId === member.userId) throw DomainError.forbidden();
      if (
        source.kind === 'group' &&
        member.accessLevel >= ACCESS_LEVELS.OWNER &&
        (await this.members.countOtherOwners(source.group, member.userId, tx)) === 0
      ) {
        throw DomainError.forbidden();
      }
      const user = await this.users.findByIdOrFail(member.userId, tx);
      await this.members.delete(tx, member.id);
      await this.outbox.append(tx, memberEvent('remove', command.actor.id, source, member, user));
    });
  }
}
