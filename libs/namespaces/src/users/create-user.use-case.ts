import { Injectable } from '@nestjs/common';
import { CreateUserAccountUseCase, CreateUserCommand, UserEntity } from '@app/identity';
import { EntityManager } from 'typeorm';
import { GroupsRepository } from '../repositories/groups.repository';

/** Creates a user with its personal namespace (one transaction), and records `user_create` in the outbox. */
@Injectable()
export class CreateUserUseCase {
  constructor(
    private readonly accounts: CreateUserAccountUseCase,
    private readonly groups: GroupsRepository,
  ) {}

  execute(command: CreateUserCommand, manager?: EntityManager): Promise<UserEntity> {
    return this.accounts.execute(command, manager, async (tx, user) => {
      const namespace = await this.groups.add(tx, {
        name: user.username,
        path: user.username,
        fullPath: user.username,
        fullName: user.name,
        kind: 'user',
        ownerId: user.id,
        visibility: 'public',
      });
      await this.groups.setTraversalIds(tx, namespace.id, [namespace.id]);
    });
  }
}
