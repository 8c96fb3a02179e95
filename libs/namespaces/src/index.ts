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
export * from './entities';
export * from './access/access-policy';
export * from './resolver/access.service';
export * from './access/feature-access';
export * from './resolver/principal-access';
export * from './settings/group-settings';
export * from './events/namespaces.events';
export * from './namespaces.module';
export * from './naming/naming';
export * from './presenters/group.presenter';
export * from './presenters/member.presenter';
export * from './presenters/namespace.presenter';
export * from './presenters/project-views.service';
export * from './presenters/project.presenter';
export * from './settings/project-attributes';
export * from './repositories/groups.repository';
export * from './repositories/members.repository';
export * from './repositories/project-statistics.repository';
export * from './repositories/projects.repository';
export * from './naming/resource-ref';
export * from './use-cases/create-group.use-case';
export * from './use-cases/create-project.use-case';
export * from './use-cases/add-member.use-case';
export * from './use-cases/delete-group.use-case';
export * from './use-cases/delete-project.use-case';
export * from './use-cases/remove-member.use-case';
export * from './use-cases/update-group.use-case';
export * from './use-cases/update-member.use-case';
export * from './use-cases/update-project.use-case';
export * from './access/access-query';
export * from './users/create-user.use-case';
export * from './users/root.bootstrap';
export * from './dto/transforms';
