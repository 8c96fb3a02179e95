import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { UserState } from '../entities/user.entity';
import { UsersRepository } from '../users/users.repository';
import { IDENTITY_EVENTS } from '../events/identity.events';

export interface SetUserStateCommand {
  userId: number;
  state: UserState;
  actorId: number;
}

/**
 * Blocks or unblocks a user (administrators), answering as GitLab's API does: `true` for a change,
 * `null` for blocking a user already blocked (GitLab's `break if user.blocked?`), `false` for
 * unblocking a user who is not blocked (the state machine refuses the transition).
 */
@Injectable()
export class SetUserStateUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    private readonly outbox: OutboxService,
  ) {}

  async execute(command: SetUserStateCommand): Promise<boolean | null> {
    return this.dataSource.transaction(async (tx) => {
      const user = await this.users.lockById(tx, command.userId);
      if (!user) throw DomainError.notFound('User');
      if (command.state === 'blocked' && command.userId === command.actorId) throw DomainError.forbidden('The user you are trying to block is yourself');
      if (user.state === command.state) return command.state === 'blocked' ? null : false;
      await this.users.setState(tx, user.id, command.state);
      await this.outbox.append(tx, {
        type: command.state === 'blocked' ? IDENTITY_EVENTS.USER_BLOCK : IDENTITY_EVENTS.USER_UNBLOCK,
        actor: command.actorId,
        target: { type: 'user', id: user.id, title: user.username },
        data: { user_id: user.id, username: user.username, name: user.name, email: user.email },
      });
      return true;
    });
  }
}
