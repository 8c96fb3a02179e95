import { ACCESS_LEVELS, featureAccessLevel, ProjectEntity } from '@app/namespaces';

/**
 * Whether a project feature (`issues`, `merge_requests`, `snippets`) is open to the caller, who
 * already sees the project: `disabled` to nobody, `private` to members (Guest+) and
 * administrators, `enabled`/`public` to everyone who sees the project.
 */
export function featureReadable(
  project: Pick<ProjectEntity, 'settings' | 'issuesEnabled' | 'mergeRequestsEnabled'>,
  feature: string,
  accessLevel: number,
  isAdmin: boolean,
): boolean {
  const level = featureAccessLevel(project, feature);
  if (level === 'disabled') return false;
  if (level === 'private') return isAdmin || accessLevel >= ACCESS_LEVELS.GUEST;
  return true;
}
