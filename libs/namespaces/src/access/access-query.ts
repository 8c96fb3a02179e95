import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { AccessUser } from './access-policy';
import { activeMembershipSql, groupVisibilitySql, projectAccessLevelSql, projectVisibilitySql } from './access-sql';

/**
 * The access rules as query-builder methods, for the repositories of other libs: each adds its
 * conditions to the given query builder and binds the viewer's id itself (parameter
 * `accessViewerId`), so that the SQL of the rules stays inside libs/namespaces. Aliases must be
 * lower-case identifiers already present in the query.
 */

const VIEWER_PARAM = 'accessViewerId';

/** Keeps the projects `project` (in namespace `namespace`) that `viewer` can see; administrators see every project. */
export function restrictToVisibleProjects<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  project: string,
  namespace: string,
  viewer: AccessUser | null,
): SelectQueryBuilder<T> {
  const visible = projectVisibilitySql(project, namespace, viewer, `:${VIEWER_PARAM}`);
  if (visible) qb.andWhere(visible).setParameter(VIEWER_PARAM, viewer?.id ?? 0);
  return qb;
}

/** Keeps the groups `group` that `viewer` can see; administrators see every group. */
export function restrictToVisibleGroups<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, group: string, viewer: AccessUser | null): SelectQueryBuilder<T> {
  const visible = groupVisibilitySql(group, viewer, `:${VIEWER_PARAM}`);
  if (visible) qb.andWhere(visible).setParameter(VIEWER_PARAM, viewer?.id ?? 0);
  return qb;
}

/**
 * Adds the conditions `build` makes of the effective access level of `viewer` (none: user 0) on
 * project `project` (namespace `namespace`): memberships, and Owner of a personal namespace;
 * administrators are not special. `build` receives the level as an SQL expression and returns
 * the conditions to add (each with `andWhere`, in order).
 */
export function whereProjectAccessLevel<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  project: string,
  namespace: string,
  viewer: { id: number } | null,
  build: (level: string) => string | readonly string[],
): SelectQueryBuilder<T> {
  const conditions = build(projectAccessLevelSql(project, namespace, `:${VIEWER_PARAM}`));
  for (const condition of typeof conditions === 'string' ? [conditions] : conditions) qb.andWhere(condition);
  return qb.setParameter(VIEWER_PARAM, viewer?.id ?? 0);
}

/** Keeps the users whose id is `userId` (an SQL column, e.g. `u.id`) with access to project `project` (namespace `namespace`): a membership or the personal namespace. */
export function restrictToProjectUsers<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  project: string,
  namespace: string,
  userId: string,
): SelectQueryBuilder<T> {
  return qb.andWhere(`${projectAccessLevelSql(project, namespace, userId)} > 0`);
}

/** Keeps the membership rows `member` (of table `members`) that have not expired. */
export function restrictToActiveMemberships<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, member: string): SelectQueryBuilder<T> {
  return qb.andWhere(activeMembershipSql(member));
}
