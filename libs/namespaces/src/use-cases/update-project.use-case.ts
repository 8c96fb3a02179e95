import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, tierAtLeast } from '@app/api';
import { AppConfig } from '@app/config';
import { uniqueViolation } from '@app/database';
import { NewDomainEvent, OutboxService } from '@app/messaging';
import { DataSource, EntityManager } from 'typeorm';
import { AccessUser, visibilityWithin } from '../access/access-policy';
import { ACCESS_LEVELS } from '../entities/member.entity';
import { Visibility } from '../entities/namespace.entity';
import { NAMESPACE_EVENTS, pathWithNamespace, projectEvent } from '../events/namespaces.events';
import { NAMING_MESSAGES, validateProjectNaming } from '../naming/naming';
import { applyProjectAttributes, normalizeTopics } from '../settings/project-attributes';
import { ProjectsRepository, ProjectWithNamespace } from '../repositories/projects.repository';
import { visibilityNotAllowedInGroup } from './create-project.use-case';

export interface UpdateProjectCommand {
  actor: AccessUser;
  /** The actor's effective level on the project (from the route's access check). */
  actorAccessLevel: number;
  projectId: number;
  name?: string;
  path?: string;
  description?: string | null;
  visibility?: Visibility;
  defaultBranch?: string;
  topics?: string[];
  tagList?: string[];
  attributes?: Record<string, unknown>;
}

/**
 * Edits a project (maintainers; checked on the route). As in GitLab, giving `name` or
 * `visibility` needs the Owner role. Records `project_update`, and `project_rename` when
 * the path changed.
 */
@Injectable()
export class UpdateProjectUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly outbox: OutboxService,
    private readonly projects: ProjectsRepository,
  ) {}

  async execute(command: UpdateProjectCommand): Promise<ProjectWithNamespace> {
    const values: unknown[] = [command.name, command.path, command.description, command.visibility, command.defaultBranch, command.topics, command.tagList];
    const given = [...values, ...Object.values(command.attributes ?? {})].some((value) => value !== undefined);
    if (!given) throw new DomainError(ErrorCode.BAD_REQUEST, 'at least one parameter must be provided', { errorKey: true });
    if ((command.name !== undefined || command.visibility !== undefined) && command.actorAccessLevel < ACCESS_LEVELS.OWNER) throw DomainError.forbidden();
    const invalid = validateProjectNaming({ name: command.name, path: command.path });
    if (Object.keys(invalid).length > 0) throw DomainError.invalid(invalid);
    try {
      return await this.dataSource.transaction((tx) => this.update(tx, command));
    } catch (error) {
      const constraint = uniqueViolation(error);
      if (constraint === 'projects_namespace_path_lower_key') throw DomainError.invalid({ path: [NAMING_MESSAGES.taken] });
      if (constraint === 'projects_namespace_name_lower_key') throw DomainError.invalid({ name: [NAMING_MESSAGES.taken] });
      throw error;
    }
  }

  private async update(tx: EntityManager, command: UpdateProjectCommand): Promise<ProjectWithNamespace> {
    const project = await this.projects.findById(command.projectId, tx, { lock: true });
    if (!project) throw DomainError.notFound('Project');
    const { namespace } = project;
    const oldPathWithNamespace = pathWithNamespace(project, namespace);

    const naming = {
      name: command.name !== undefined && command.name !== project.name ? command.name : undefined,
      path: command.path !== undefined && command.path !== project.path ? command.path : undefined,
    };
    const conflicts = await this.projects.namingConflicts(namespace, naming, project.id, tx);
    if (Object.keys(conflicts).length > 0) throw DomainError.invalid(conflicts);
    if (command.visibility !== undefined && namespace.kind === 'group' && !visibilityWithin(command.visibility, namespace.visibility)) {
      throw DomainError.invalid({ visibility_level: [visibilityNotAllowedInGroup(command.visibility, namespace.visibility)] });
    }

    if (naming.name !== undefined) project.name = naming.name;
    if (naming.path !== undefined) project.path = naming.path;
    if (command.description !== undefined) project.description = command.description;
    if (command.visibility !== undefined) project.visibility = command.visibility;
    if (command.defaultBranch !== undefined) project.defaultBranch = command.defaultBranch;
    const topics = normalizeTopics(command.topics, command.tagList);
    if (topics !== undefined) project.topics = topics;
    applyProjectAttributes(project, command.attributes ?? {}, { premium: tierAtLeast(this.config.tier, 'premium') });
    project.lastActivityAt = new Date();
    await this.projects.save(tx, project);

    const updated = (await this.projects.findById(project.id, tx))!;
    const context = await this.projects.hookContext(updated, namespace, tx);
    const events: NewDomainEvent[] = [];
    if (naming.path !== undefined)
      events.push(projectEvent(NAMESPACE_EVENTS.PROJECT_RENAME, command.actor.id, context, { old_path_with_namespace: oldPathWithNamespace }));
    events.push(projectEvent(NAMESPACE_EVENTS.PROJECT_UPDATE, command.actor.id, context));
    await this.outbox.append(tx, events);
    return updated;
  }
}
