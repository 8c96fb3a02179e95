import type { Principal, ResourceAccess } from '@app/api';
import type { NamespaceEntity } from '../entities/namespace.entity';
import type { ProjectWithNamespace } from '../repositories/projects.repository';
import type { AccessUser } from '../access/access-policy';

/** The request's principal as the access rules see it. */
/** The access identity of a signed-in principal. */
export const accessUserOf = (principal: Principal): AccessUser => ({
  id: principal.user.id,
  isAdmin: principal.user.isAdmin,
  external: principal.user.external,
});

export const toAccessUser = (principal: Principal | null | undefined): AccessUser | null => (principal ? accessUserOf(principal) : null);

/** The project resolved by `@ProjectAccess` (this library's resolver puts a project with its namespace there). */
export const projectOf = (access: ResourceAccess | undefined): ProjectWithNamespace => {
  if (!access) throw new Error('No project was resolved for this route: declare @ProjectAccess on it');
  return access.resource as ProjectWithNamespace;
};

/** The group resolved by `@GroupAccess`. */
export const groupOf = (access: ResourceAccess | undefined): NamespaceEntity => {
  if (!access) throw new Error('No group was resolved for this route: declare @GroupAccess on it');
  return access.resource as NamespaceEntity;
};
