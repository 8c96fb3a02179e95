import type { AccessUser } from './access-policy';

/**
 * SQL fragments of the access rules, shared by the single-resource checks and the list
 * queries. `uid` is a parameter placeholder (`:uid` for query builders, `$1` for raw SQL);
 * aliases must be lower-case identifiers.
 */

/** Today in UTC, the reference day of `expires_at` (written without `::` casts, which query builders take for parameters). */
export const TODAY_SQL = "CAST(timezone('UTC', now()) AS date)";

/** The membership row `m` has not expired. */
export const activeMembershipSql = (m: string): string => `(${m}.expires_at IS NULL OR ${m}.expires_at > ${TODAY_SQL})`;

/** Highest active membership level of `uid` on project `p` (direct, or in one of the groups in `n.traversal_ids`). */
export const projectMemberLevelSql = (p: string, n: string, uid: string): string =>
  `COALESCE((SELECT max(pl.access_level) FROM members pl WHERE pl.user_id = ${uid} AND ${activeMembershipSql('pl')} ` +
  `AND ((pl.source_type = 'project' AND pl.source_id = ${p}.id) OR (pl.source_type = 'namespace' AND pl.source_id = ANY(${n}.traversal_ids)))), 0)`;

/** Effective level of `uid` on project `p` (memberships, and Owner of the personal namespace `n`); administrators excluded. */
export const projectAccessLevelSql = (p: string, n: string, uid: string): string =>
  `GREATEST(${projectMemberLevelSql(p, n, uid)}, CASE WHEN ${n}.kind = 'user' AND ${n}.owner_id = ${uid} THEN 50 ELSE 0 END)`;

/** Highest active membership level of `uid` on group `g` (direct or inherited from an ancestor). */
export const groupAccessLevelSql = (g: string, uid: string): string =>
  `COALESCE((SELECT max(gl.access_level) FROM members gl WHERE gl.user_id = ${uid} AND ${activeMembershipSql('gl')} ` +
  `AND gl.source_type = 'namespace' AND gl.source_id = ANY(${g}.traversal_ids)), 0)`;

/** `uid` is a member of a subgroup of `g` or of a project inside `g` (the group becomes readable). */
export const groupDescendantAccessSql = (g: string, uid: string): string =>
  `(EXISTS (SELECT 1 FROM members dm JOIN namespaces dn ON dn.id = dm.source_id WHERE dm.source_type = 'namespace' ` +
  `AND dm.user_id = ${uid} AND ${activeMembershipSql('dm')} AND ${g}.id = ANY(dn.traversal_ids)) ` +
  `OR EXISTS (SELECT 1 FROM members dm JOIN projects dp ON dp.id = dm.source_id JOIN namespaces dn ON dn.id = dp.namespace_id ` +
  `WHERE dm.source_type = 'project' AND dm.user_id = ${uid} AND ${activeMembershipSql('dm')} AND ${g}.id = ANY(dn.traversal_ids)))`;

/** Groups "related" to `uid`: member of the group or an ancestor, or of something inside it. */
export const groupRelatedSql = (g: string, uid: string): string => `(${groupAccessLevelSql(g, uid)} > 0 OR ${groupDescendantAccessSql(g, uid)})`;

/** Condition for projects `p` (namespace `n`) the viewer can see; null when every project is visible (administrators). */
export function projectVisibilitySql(p: string, n: string, viewer: AccessUser | null, uid: string): string | null {
  if (viewer?.isAdmin) return null;
  if (!viewer) return `${p}.visibility = 'public'`;
  const internal = viewer.external ? '' : ` OR ${p}.visibility = 'internal'`;
  return `(${p}.visibility = 'public'${internal} OR ${projectAccessLevelSql(p, n, uid)} > 0)`;
}

/** Condition for groups `g` the viewer can see; null for administrators. */
export function groupVisibilitySql(g: string, viewer: AccessUser | null, uid: string): string | null {
  if (viewer?.isAdmin) return null;
  if (!viewer) return `${g}.visibility = 'public'`;
  const internal = viewer.external ? '' : ` OR ${g}.visibility = 'internal'`;
  return `(${g}.visibility = 'public'${internal} OR ${groupRelatedSql(g, uid)})`;
}
