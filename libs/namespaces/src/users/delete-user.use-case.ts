import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { NewDomainEvent, OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { IDENTITY_EVENTS, UsersRepository } from '@app/identity';
import { NAMESPACE_EVENTS, projectEvent } from '../events/namespaces.events';
import { GroupsRepository } from '../repositories/groups.repository';
import { MembersRepository } from '../repositories/members.repository';
import { ProjectsRepository } from '../repositories/projects.repository';

/**
 * Deletes a user with its personal namespace, that namespace's projects and every
 * membership; records `project_destroy` for each project and `user_destroy`. A user who
 * is the only owner of a group is refused (409), as in GitLab: ownership moves first.
 */
@Injectable()
export class DeleteUserUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly projects: ProjectsRepository,
    private readonly members: MembersRepository,
    private readonly groups: GroupsRepository,
    private readonly users: UsersRepository,
  ) {}

  async execute(command: { userId: number; actorId: number }): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const user = await this.users.lockById(tx, command.userId);
      if (!user) throw DomainError.notFound('User');
      const soleOwned = await this.members.groupsSolelyOwnedBy(user.id, tx);
      if (soleOwned.length > 0) {
        throw DomainError.conflict(`User is the sole owner of ${soleOwned.join(', ')}: transfer ownership or delete those groups first`);
      }

      const namespace = await this.groups.personalNamespace(user.id, tx);
      const events: NewDomainEvent[] = [];
      if (namespace) {
        const projects = await this.projects.inNamespace(tx, namespace.id);
        for (const project of projects) {
          events.push(projectEvent(NAMESPACE_EVENTS.PROJECT_DESTROY, command.actorId, await this.projects.hookContext(project, namespace, tx)));
        }
        if (projects.length > 0) {
          await this.members.deleteOfProjects(
            tx,
            projects.map((p) => p.id),
          );
          await this.projects.deleteByIds(
            tx,
            projects.map((p) => p.id),
          );
        }
        await this.groups.delete(tx, namespace.id);
      }
      await this.members.deleteOfUser(tx, user.id);
      await this.users.delete(tx, user.id);
      events.push({
        type: IDENTITY_EVENTS.USER_DESTROY,
        actor: command.actorId,
        target: { type: 'user', id: user.id, title: user.username },
        data: { user_id: user.id, name: user.name, username: user.username, email: user.email },
      });
      await this.outbox.append(tx, events);
    });
  }
}
