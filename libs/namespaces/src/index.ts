// libs/namespaces is built as one-way slices (docs/ci.md "Code layout"): a folder imports only the
// folders below it, and nothing in a folder imports the files directly in src/ (this index, the
// module, the controllers and the project list service, which compose them):
//
//   use-cases/  users/  presenters/  dto/      group, project, member and user writes; the views; the DTOs
//   resolver/                                  the principal's access to a project or group
//   repositories/                              the SQL of the lib
//   events/ naming/                            domain events; names, paths and resource references
//   access/ settings/ entities/                access levels, group settings and project attributes, the core
//
// Check: `node scripts/folder-cycles.mjs namespaces`.
//
// Other libs, the apps and the tests use these names only.
export {
  ACCESS_LEVELS,
  MEMBER_ACCESS_LEVELS,
  MemberEntity,
  NamespaceEntity,
  ProjectEntity,
  ProjectStarEntity,
  ProjectStatisticsEntity,
  TopicEntity,
  VISIBILITIES,
  VISIBILITY_LEVEL,
} from './entities';
export type { Visibility } from './entities';
export type { AccessUser } from './access/access-policy';
export { AccessService } from './resolver/access.service';
export { projectFeatureReadable } from './access/feature-access';
export { accessUserOf, groupOf, projectOf, toAccessUser } from './resolver/principal-access';
export { NAMESPACE_EVENTS, nameWithNamespace, pathWithNamespace, projectEvent, projectMemberEvent } from './events/namespaces.events';
export { NamespacesModule } from './namespaces.module';
export { namespaceWebUrl } from './presenters/namespace.presenter';
export { projectUrls } from './presenters/project.presenter';
export { featureAccessLevel } from './settings/project-attributes';
export { GroupsRepository } from './repositories/groups.repository';
export { MembersRepository } from './repositories/members.repository';
export { ProjectsRepository } from './repositories/projects.repository';
export type { ProjectWithNamespace } from './repositories/projects.repository';
export { CreateGroupUseCase } from './use-cases/create-group.use-case';
export { CreateProjectUseCase, PROJECT_REPOSITORY_LIFECYCLE } from './use-cases/create-project.use-case';
export type { ProjectRepositoryLifecycle } from './use-cases/create-project.use-case';
export { AddMemberUseCase } from './use-cases/add-member.use-case';
export { DeleteGroupUseCase } from './use-cases/delete-group.use-case';
export { DeleteProjectUseCase } from './use-cases/delete-project.use-case';
export { RemoveMemberUseCase } from './use-cases/remove-member.use-case';
export { UpdateGroupUseCase } from './use-cases/update-group.use-case';
export { UpdateMemberUseCase } from './use-cases/update-member.use-case';
export { UpdateProjectUseCase } from './use-cases/update-project.use-case';
export {
  restrictToActiveMemberships,
  restrictToProjectUsers,
  restrictToVisibleGroups,
  restrictToVisibleProjects,
  whereProjectAccessLevel,
} from './access/access-query';
export { CreateUserUseCase } from './users/create-user.use-case';
export { RootUserBootstrap } from './users/root.bootstrap';
