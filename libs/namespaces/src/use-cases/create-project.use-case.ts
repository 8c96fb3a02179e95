import { Inject, Injectable, Optional } from '@nestjs/common';
import { DomainError, ErrorCode, tierAtLeast, ValidationMessages } from '@app/api';
import { AppConfig } from '@app/config';
import { digestToken, UserEntity, UsersRepository } from '@app/identity';
import { uniqueViolation } from '@app/database';
import { NewDomainEvent, OutboxService } from '@app/messaging';
import { SettingsEncryption } from '@app/secrets';
import { defaultVisibilityWithin, SettingsReader } from '@app/settings';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AccessUser, projectCreationMinLevel, visibilityWithin } from '../access/access-policy';
import { AccessService } from '../resolver/access.service';
import { ACCESS_LEVELS } from '../entities/member.entity';
import { NamespaceEntity, Visibility } from '../entities/namespace.entity';
import { ProjectEntity, RUNNERS_TOKEN_PURPOSE } from '../entities/project.entity';
import { groupSetting } from '../settings/group-settings';
import { NAMESPACE_EVENTS, projectEvent, projectMemberEvent } from '../events/namespaces.events';
import { deriveProjectNaming, NAMING_MESSAGES, validateProjectNaming } from '../naming/naming';
import { applyProjectAttributes, normalizeTopics } from '../settings/project-attributes';
import { GroupsRepository } from '../repositories/groups.repository';
import { MembersRepository } from '../repositories/members.repository';
import { ProjectsRepository, ProjectWithNamespace } from '../repositories/projects.repository';

export interface CreateProjectCommand {
  actor: AccessUser;
  name?: string;
  path?: string;
  /** `namespace_id`: id or full path of a group or personal namespace; the actor's own namespace when absent. */
  namespaceRef?: string;
  description?: string | null;
  visibility?: Visibility;
  defaultBranch?: string;
  topics?: string[];
  tagList?: string[];
  initializeWithReadme?: boolean;
  /** Further validated attributes (feature switches, merge settings...). */
  attributes?: Record<string, unknown>;
}

export interface CreatedProject {
  project: ProjectWithNamespace;
  /** Shown once, in the creation response; only its digest is stored. */
  runnersToken: string;
}

/**
 * The project's git repository, provided by the repository library when it is loaded (this
 * library does not depend on it). `created` runs inside the creating transaction (it may append
 * outbox events with `tx`); `removed` runs after a project is deleted.
 */
export const PROJECT_REPOSITORY_LIFECYCLE = Symbol('PROJECT_REPOSITORY_LIFECYCLE');
export interface ProjectRepositoryLifecycle {
  created(tx: EntityManager, project: ProjectWithNamespace, options: { actorId: number; initializeWithReadme: boolean }): Promise<void>;
  removed(projectId: number): Promise<void>;
}

/** GitLab's prefix of project runner registration tokens. */
export const RUNNERS_TOKEN_PREFIX = 'GR1348941';

export const visibilityNotAllowedInGroup = (visibility: Visibility, group: Visibility): string => `${visibility} is not allowed in a ${group} group.`;

/**
 * Creates a project in the actor's namespace or in a group where the group's
 * `project_creation_level` (Developer by default) allows it. Membership: Owner for the
 * namespace owner of a personal project; Maintainer for the creator in a group unless they
 * already own the group. Records `project_create` and `user_add_to_team`.
 */
@Injectable()
export class CreateProjectUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly outbox: OutboxService,
    private readonly access: AccessService,
    private readonly groups: GroupsRepository,
    private readonly projects: ProjectsRepository,
    private readonly settings: SettingsReader,
    private readonly encryption: SettingsEncryption,
    private readonly members: MembersRepository,
    private readonly users: UsersRepository,
    @Optional() @Inject(PROJECT_REPOSITORY_LIFECYCLE) private readonly repositories?: ProjectRepositoryLifecycle,
  ) {}

  async execute(command: CreateProjectCommand): Promise<CreatedProject> {
    if (command.name === undefined && command.path === undefined) {
      throw new DomainError(ErrorCode.BAD_REQUEST, 'name, path are missing, at least one parameter must be provided', { errorKey: true });
    }
    const naming = deriveProjectNaming(command);
    const invalid = validateProjectNaming(naming);
    if (Object.keys(invalid).length > 0) throw DomainError.invalid(invalid);
    const runnersToken = `${RUNNERS_TOKEN_PREFIX}${randomBytes(15).toString('base64url')}`;
    try {
      const project = await this.dataSource.transaction((tx) => this.create(tx, command, naming, runnersToken));
      return { project, runnersToken };
    } catch (error) {
      const constraint = uniqueViolation(error);
      if (constraint === 'projects_namespace_path_lower_key') throw DomainError.invalid({ path: [NAMING_MESSAGES.taken] });
      if (constraint === 'projects_namespace_name_lower_key') throw DomainError.invalid({ name: [NAMING_MESSAGES.taken] });
      throw error;
    }
  }

  private async create(
    tx: EntityManager,
    command: CreateProjectCommand,
    naming: { name: string; path: string },
    runnersToken: string,
  ): Promise<ProjectWithNamespace> {
    const { actor } = command;
    const namespace = await this.authorizedNamespace(tx, command);
    const owner = namespace.kind === 'user' ? await this.users.findByIdOrFail(namespace.ownerId!, tx) : null;
    if (owner) await this.checkProjectsLimit(tx, owner, namespace);

    const settings = await this.settings.get();
    // Without a visibility: the instance default (`default_project_visibility`), lowered to what the group allows.
    const visibility =
      command.visibility ??
      defaultVisibilityWithin(settings.string('default_project_visibility') as Visibility, namespace.kind === 'group' ? namespace.visibility : null);
    if (namespace.kind === 'group' && !visibilityWithin(visibility, namespace.visibility)) {
      throw DomainError.invalid({ visibility_level: [visibilityNotAllowedInGroup(visibility, namespace.visibility)] });
    }
    const conflicts = await this.projects.namingConflicts(namespace, naming, null, tx);
    if (Object.keys(conflicts).length > 0) throw DomainError.invalid(conflicts);

    const entity = tx.create(ProjectEntity, {
      name: naming.name,
      path: naming.path,
      namespaceId: namespace.id,
      description: command.description ?? null,
      visibility,
      creatorId: actor.id,
      defaultBranch: command.defaultBranch ?? (command.initializeWithReadme ? (settings.string('default_branch_name') ?? 'main') : null),
      topics: normalizeTopics(command.topics, command.tagList) ?? [],
      settings: {},
      runnersTokenDigest: digestToken(runnersToken),
      encryptedRunnersToken: this.encryption.seal(RUNNERS_TOKEN_PURPOSE, runnersToken),
    });
    applyProjectAttributes(entity, command.attributes ?? {}, { premium: tierAtLeast(this.config.tier, 'premium') });
    const { id } = await this.projects.insert(tx, entity);
    const project = (await this.projects.findById(id, tx))!;

    const memberUser = owner ?? (await this.creatorToAdd(tx, actor, namespace));
    const events: NewDomainEvent[] = [projectEvent(NAMESPACE_EVENTS.PROJECT_CREATE, actor.id, await this.projects.hookContext(project, namespace, tx))];
    if (memberUser) {
      const member = await this.members.add(tx, {
        sourceType: 'project',
        sourceId: project.id,
        userId: memberUser.id,
        accessLevel: owner ? ACCESS_LEVELS.OWNER : ACCESS_LEVELS.MAINTAINER,
        createdById: actor.id,
        expiresAt: null,
      });
      events.push(projectMemberEvent(NAMESPACE_EVENTS.USER_ADD_TO_TEAM, actor.id, project, namespace, member, memberUser));
    }
    await this.outbox.append(tx, events);
    await this.repositories?.created(tx, project, { actorId: actor.id, initializeWithReadme: command.initializeWithReadme === true });
    return project;
  }

  /** The target namespace, if the actor may create projects there; otherwise GitLab's `namespace is not valid`. */
  private async authorizedNamespace(tx: EntityManager, command: CreateProjectCommand): Promise<NamespaceEntity> {
    const { actor } = command;
    const notValid = () => DomainError.invalid({ namespace: ['is not valid'] });
    const namespace =
      command.namespaceRef !== undefined ? await this.groups.findNamespaceByRef(command.namespaceRef, tx) : await this.groups.personalNamespace(actor.id, tx);
    if (!namespace) throw notValid();
    if (actor.isAdmin) return namespace;
    if (namespace.kind === 'user') {
      if (namespace.ownerId !== actor.id) throw notValid();
      return namespace;
    }
    const level = await this.access.groupAccessLevel(namespace, actor, tx);
    if (level < projectCreationMinLevel(groupSetting(namespace, 'project_creation_level'))) throw notValid();
    return namespace;
  }

  private async checkProjectsLimit(tx: EntityManager, owner: UserEntity, namespace: NamespaceEntity): Promise<void> {
    const limit = owner.projectsLimit;
    const messages: ValidationMessages = {};
    if (limit <= 0) messages.limit_reached = ['Personal project creation is not allowed. Please contact your administrator with questions'];
    else if ((await this.projects.countInNamespace(namespace.id, tx)) >= limit) {
      messages.limit_reached = [`Your project limit is ${limit} projects! Please contact your administrator to increase it`];
    }
    if (Object.keys(messages).length > 0) throw DomainError.invalid(messages);
  }

  /** In a group the creator becomes Maintainer, unless they already own the group (directly or by inheritance). */
  private async creatorToAdd(tx: EntityManager, actor: AccessUser, namespace: NamespaceEntity): Promise<UserEntity | null> {
    const inherited = await this.access.groupAccessLevel(namespace, { ...actor, isAdmin: false }, tx);
    if (inherited >= ACCESS_LEVELS.OWNER) return null;
    return this.users.findByIdOrFail(actor.id, tx);
  }
}
