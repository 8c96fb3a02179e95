import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { AccessUser } from '../access/access-policy';
import { NAMESPACE_EVENTS, projectEvent } from '../events/namespaces.events';
import { ProjectsRepository, ProjectWithNamespace } from '../repositories/projects.repository';

export interface ArchiveProjectCommand {
  actor: AccessUser;
  projectId: number;
  /** true: archive; false: unarchive. */
  archived: boolean;
}

/**
 * Archives or unarchives a project (Owner or administrator; checked on the route).
 * Idempotent: asking for the current state changes nothing and records nothing. A change
 * records `project_update` in the same transaction, as GitLab's system hooks report it.
 */
@Injectable()
export class ArchiveProjectUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly projects: ProjectsRepository,
  ) {}

  async execute(command: ArchiveProjectCommand): Promise<ProjectWithNamespace> {
    return this.dataSource.transaction(async (tx) => {
      const project = await this.projects.findById(command.projectId, tx, { lock: true });
      if (!project) throw DomainError.notFound('Project');
      if (project.archived === command.archived) return project;
      await this.projects.setArchived(tx, project.id, command.archived);
      const updated = (await this.projects.findById(project.id, tx))!;
      const context = await this.projects.hookContext(updated, updated.namespace, tx);
      await this.outbox.append(tx, [projectEvent(NAMESPACE_EVENTS.PROJECT_UPDATE, command.actor.id, context)]);
      return updated;
    });
  }
}
