import { Inject, Injectable, Optional } from '@nestjs/common';
import { assertNotModifiedAfter, DomainError } from '@app/api';
import { NewDomainEvent, OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { AccessUser } from '../access/access-policy';
import { groupEvent, NAMESPACE_EVENTS, projectEvent } from '../events/namespaces.events';
import { GroupsRepository } from '../repositories/groups.repository';
import { MembersRepository } from '../repositories/members.repository';
import { ProjectsRepository } from '../repositories/projects.repository';
import { PROJECT_REPOSITORY_LIFECYCLE, ProjectRepositoryLifecycle } from './create-project.use-case';

export interface DeleteGroupCommand {
  actor: AccessUser;
  groupId: number;
  /** `If-Unmodified-Since` of the request: 412 when the group changed after it. */
  ifUnmodifiedSince?: Date;
}

/**
 * Deletes a group at once with its subgroups, their projects and memberships (owners;
 * checked on the route). Records `project_destroy` for every project, then `group_destroy`
 * for every group, deepest first. The projects' repositories are removed once the deletion is
 * committed.
 */
@Injectable()
export class DeleteGroupUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly groups: GroupsRepository,
    private readonly projects: ProjectsRepository,
    private readonly members: MembersRepository,
    @Optional() @Inject(PROJECT_REPOSITORY_LIFECYCLE) private readonly repositories?: ProjectRepositoryLifecycle,
  ) {}

  async execute(command: DeleteGroupCommand): Promise<void> {
    const projectIds = await this.dataSource.transaction(async (tx) => {
      const group = await this.groups.findById(command.groupId, tx, { lock: true });
      if (!group) throw DomainError.notFound('Group');
      assertNotModifiedAfter(group.updatedAt, command.ifUnmodifiedSince);
      const namespaces = [...(await this.groups.descendants(group, tx)), group];
      const byId = new Map(namespaces.map((n) => [n.id, n]));
      const projects = await this.projects.inNamespaces(tx, [...byId.keys()]);

      const events: NewDomainEvent[] = [];
      for (const project of projects) {
        const context = await this.projects.hookContext(project, byId.get(project.namespaceId)!, tx);
        events.push(projectEvent(NAMESPACE_EVENTS.PROJECT_DESTROY, command.actor.id, context));
      }
      for (const namespace of namespaces) events.push(groupEvent(NAMESPACE_EVENTS.GROUP_DESTROY, command.actor.id, namespace));

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
      await this.members.deleteOfNamespaces(tx, [...byId.keys()]);
      for (const namespace of namespaces) await this.groups.delete(tx, namespace.id);
      await this.outbox.append(tx, events);
      return projects.map((p) => p.id);
    });
    // The repositories go once the deletion is committed (their directories are keyed by the ids).
    for (const projectId of projectIds) await this.repositories?.removed(projectId);
  }
}
