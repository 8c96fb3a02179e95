import 'reflect-metadata';
import { AppConfig } from '@app/config';
import { createDataSource, EntityList } from '@app/database';
import { CreateUserAccountUseCase, UserEntity, UsersRepository } from '@app/identity';
import { DomainEvent, OutboxService } from '@app/messaging';
import {
  AccessService,
  AccessUser,
  AddMemberUseCase,
  CreateGroupUseCase,
  CreateUserUseCase,
  CreateProjectUseCase,
  DeleteGroupUseCase,
  DeleteProjectUseCase,
  GroupsRepository,
  MemberEntity,
  MembersRepository,
  NamespaceEntity,
  ProjectsRepository,
  ProjectWithNamespace,
  RemoveMemberUseCase,
  UpdateGroupUseCase,
  UpdateMemberUseCase,
  UpdateProjectUseCase,
  Visibility,
} from '@app/namespaces';
import { SettingsEncryption } from '@app/secrets';
import { ApplicationSettings, StaticSettingsReader } from '@app/settings';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createTestDatabase } from './test-database';

/**
 * A real database (cloned from the migrated template) with this library's services wired by
 * hand, and data factories. One per test file.
 */
export interface NamespacesFixture {
  config: AppConfig;
  dataSource: DataSource;
  access: AccessService;
  groups: GroupsRepository;
  projects: ProjectsRepository;
  members: MembersRepository;
  createGroup: CreateGroupUseCase;
  updateGroup: UpdateGroupUseCase;
  deleteGroup: DeleteGroupUseCase;
  createProject: CreateProjectUseCase;
  updateProject: UpdateProjectUseCase;
  deleteProject: DeleteProjectUseCase;
  addMember: AddMemberUseCase;
  updateMember: UpdateMemberUseCase;
  removeMember: RemoveMemberUseCase;
  factory: NamespacesFactory;
  /** Sequence number of the newest outbox row (a mark for `eventsSince`). */
  outboxMark(): Promise<string>;
  /** Envelopes written to the outbox after `mark`, in order. */
  eventsSince(mark: string): Promise<DomainEvent[]>;
  close(): Promise<void>;
}

export interface NamespacesFactory {
  user(
    overrides?: Partial<{ username: string; admin: boolean; external: boolean; canCreateGroup: boolean; projectsLimit: number }>,
  ): Promise<UserEntity & { actor: AccessUser }>;
  group(
    owner: AccessUser,
    overrides?: Partial<{ name: string; path: string; parentId: number; visibility: Visibility; settings: Record<string, unknown> }>,
  ): Promise<NamespaceEntity>;
  project(owner: AccessUser, overrides?: Partial<{ name: string; namespaceRef: string; visibility: Visibility }>): Promise<ProjectWithNamespace>;
  /** Inserts a membership row directly (bypassing the rules), e.g. an expired one. */
  membership(source: { project?: number; namespace?: number }, userId: number, accessLevel: number, expiresAt?: string | null): Promise<MemberEntity>;
}

export const actorOf = (user: UserEntity): AccessUser => ({ id: user.id, isAdmin: user.isAdmin, external: user.external });

/** `entities`: the data source's entity list (the apps' `ENTITIES`; this library names no app). */
export async function createNamespacesFixture(label: string, entities: EntityList, env: Record<string, string> = {}): Promise<NamespacesFixture> {
  const db = await createTestDatabase(label);
  const prefix = `t${randomBytes(4).toString('hex')}`;
  const config = AppConfig.fromEnvironment({
    DATABASE_URL: db.url,
    KAFKA_TOPIC_PREFIX: prefix,
    REDIS_PREFIX: prefix,
    EXTERNAL_URL: 'https://git.example.com',
    SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ...env,
  });
  const dataSource = await createDataSource(config, entities).initialize();
  const outbox = new OutboxService(config);
  const projects = new ProjectsRepository(dataSource);
  const groups = new GroupsRepository(dataSource);
  const members = new MembersRepository(dataSource);
  const users = new UsersRepository(dataSource);
  const access = new AccessService(members, projects, groups);
  const settings = new StaticSettingsReader(
    ApplicationSettings.defaults({ host: 'git.example.com', sessionExpireDelayMinutes: config.auth.sessionExpireDelayMinutes }),
  );
  const createUser = new CreateUserUseCase(new CreateUserAccountUseCase(dataSource, users, outbox, settings), groups);
  const createGroup = new CreateGroupUseCase(dataSource, config, outbox, access, groups, settings, members, users);
  const createProject = new CreateProjectUseCase(
    dataSource,
    config,
    outbox,
    access,
    groups,
    projects,
    settings,
    new SettingsEncryption(config),
    members,
    users,
  );

  let sequence = 0;
  const factory: NamespacesFactory = {
    async user(overrides = {}) {
      sequence += 1;
      const username = overrides.username ?? `user${sequence}_${randomBytes(2).toString('hex')}`;
      const user = await createUser.execute({
        email: `${username}@example.com`,
        name: username.charAt(0).toUpperCase() + username.slice(1),
        username,
        password: 'not-used-password',
        admin: overrides.admin,
        external: overrides.external,
        canCreateGroup: overrides.canCreateGroup,
        projectsLimit: overrides.projectsLimit,
        actorId: null,
      });
      return Object.assign(user, { actor: actorOf(user) });
    },
    async group(owner, overrides = {}) {
      sequence += 1;
      const path = overrides.path ?? `group-${sequence}`;
      return createGroup.execute({
        actor: owner,
        name: overrides.name ?? path,
        path,
        parentId: overrides.parentId,
        visibility: overrides.visibility,
        settings: overrides.settings,
      });
    },
    async project(owner, overrides = {}) {
      sequence += 1;
      const { project } = await createProject.execute({
        actor: owner,
        name: overrides.name ?? `Project ${sequence}`,
        namespaceRef: overrides.namespaceRef,
        visibility: overrides.visibility,
      });
      return project;
    },
    async membership(source, userId, accessLevel, expiresAt = null) {
      return dataSource.manager.save(
        dataSource.manager.create(MemberEntity, {
          sourceType: source.project !== undefined ? 'project' : 'namespace',
          sourceId: source.project ?? source.namespace!,
          userId,
          accessLevel,
          createdById: null,
          expiresAt,
        }),
      );
    },
  };

  return {
    config,
    dataSource,
    access,
    groups,
    projects,
    members,
    createGroup,
    updateGroup: new UpdateGroupUseCase(dataSource, config, outbox, groups),
    deleteGroup: new DeleteGroupUseCase(dataSource, outbox, groups, projects, members),
    createProject,
    updateProject: new UpdateProjectUseCase(dataSource, config, outbox, projects),
    deleteProject: new DeleteProjectUseCase(dataSource, outbox, projects, members),
    addMember: new AddMemberUseCase(dataSource, outbox, members, users),
    updateMember: new UpdateMemberUseCase(dataSource, outbox, members, users),
    removeMember: new RemoveMemberUseCase(dataSource, outbox, members, users),
    factory,
    async outboxMark() {
      const [row] = await dataSource.query('SELECT coalesce(max(seq), 0)::text AS seq FROM outbox_events');
      return (row as { seq: string }).seq;
    },
    async eventsSince(mark) {
      const rows = (await dataSource.query('SELECT payload FROM outbox_events WHERE seq > $1 ORDER BY seq', [mark])) as { payload: DomainEvent }[];
      return rows.map((r) => r.payload);
    },
    async close() {
      await dataSource.destroy();
      await db.drop();
    },
  };
}

/** Today plus `days`, as `YYYY-MM-DD` (UTC). */
export const dayOffset = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
