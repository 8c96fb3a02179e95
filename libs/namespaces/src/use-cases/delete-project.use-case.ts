import { Inject, Injectable, Optional } from '@nestjs/common';
import { assertNotModifiedAfter, DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { AccessUser } from '../access/access-policy';
import { NAMESPACE_EVENTS, projectEvent } from '../events/namespaces.events';
import { MembersRepository } from '../repositories/members.repository';
import { ProjectsRepository } from '../repositories/projects.repository';
import { PROJECT_REPOSITORY_LIFECYCLE, ProjectRepositoryLifecycle } from './create-project.use-case';

export interface DeleteProjectCommand {
  actor: AccessUser;
  projectId: number;
  /** `If-Unmodified-Since` of the request: 412 when the project changed after it. */
  ifUnmodifiedSince?: Date;
}

/** Deletes a project and its memberships at once (owners and administrators; checked on the route); records `project_destroy`. */
@Injectable()
export class DeleteProjectUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly projects: ProjectsRepository,
    private readonly members: MembersRepository,
    @Optional() @Inject(PROJECT_REPOSITORY_LIFECYCLE) private readonly repositories?: ProjectRepositoryLifecycle,
  ) {}

  async execute(command: DeleteProjectCommand): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const project = await this.projects.findById(command.projectId, tx, { lock: true });
      if (!project) throw DomainError.notFound('Project');
      assertNotModifiedAfter(project.updatedAt, command.ifUnmodifiedSince);
      const context = await this.projects.hookContext(project, project.namespace, tx);
      await this.members.deleteOfProject(tx, project.id);
      await this.projects.delete(tx, project.id);
      await this.outbox.append(tx, projectEvent(NAMESPACE_EVENTS.PROJECT_DESTROY, command.actor.id, context));
    });
    // The repository goes once the deletion is committed (its directory is keyed by the id).
    await this.repositories?.removed(command.projectId);
  }
}
