import { ACCESS_LEVELS } from '../entities/member.entity';
import type { ProjectEntity } from '../entities/project.entity';
import { featureAccessLevel, projectSetting } from '../settings/project-attributes';

/** Project features whose read paths the access guard checks (see docs/api-behaviour.md). */
export type GuardedProjectFeature = 'merge_requests' | 'repository' | 'builds';

type FeatureProject = Pick<ProjectEntity, 'visibility' | 'settings' | 'issuesEnabled' | 'mergeRequestsEnabled'>;

/**
 * Minimum member level when a feature is `private` (members only) in a public or internal
 * project (GitLab's `ProjectFeature::PRIVATE_FEATURES_MIN_ACCESS_LEVEL`: Reporter for merge
 * requests, Guest otherwise).
 */
const MEMBERS_ONLY_MIN_LEVEL: Readonly<Record<GuardedProjectFeature, number>> = {
  merge_requests: ACCESS_LEVELS.REPORTER,
  repository: ACCESS_LEVELS.GUEST,
  builds: ACCESS_LEVELS.GUEST,
};

/**
 * Whether the caller, who already sees the project and has `accessLevel` on it (60 for
 * administrators), may read the feature — GitLab's `read_merge_request`, `read_code` /
 * `download_code` and `read_pipeline` / `read_build`:
 * - a `disabled` feature is read by nobody, administrators included; merge requests and
 *   pipelines also go with a disabled repository;
 * - in a private project, merge requests and code take Reporter (a Guest sees the project,
 *   its issues and wiki, not its code); pipelines and jobs take Guest when `public_jobs`
 *   ("Public pipelines") is on, Reporter when it is off;
 * - in a public or internal project, a `private` (members only) feature takes a membership:
 *   Reporter for merge requests, Guest for the repository and pipelines; an `enabled` feature
 *   is open to everyone who sees the project — except pipelines and jobs when `public_jobs`
 *   is off, which then take Reporter.
 */
export function projectFeatureReadable(project: FeatureProject, feature: GuardedProjectFeature, accessLevel: number): boolean {
  const level = featureAccessLevel(project, feature);
  if (level === 'disabled') return false;
  if (feature !== 'repository' && featureAccessLevel(project, 'repository') === 'disabled') return false;
  const publicJobs = projectSetting(project, 'public_jobs') !== false;
  if (feature === 'builds' && !publicJobs) return accessLevel >= ACCESS_LEVELS.REPORTER;
  if (project.visibility === 'private') return accessLevel >= (feature === 'builds' ? ACCESS_LEVELS.GUEST : ACCESS_LEVELS.REPORTER);
  if (level === 'private') return accessLevel >= MEMBERS_ONLY_MIN_LEVEL[feature];
  return true;
}

/**
 * The feature a project route belongs to, from its path (`/projects/:id/merge_requests…`,
 * `/projects/:id/repository/…`, `/projects/:id/languages`, `/projects/:id/pipeline(s)…`,
 * `/projects/:id/jobs…`), or null: the access guard applies `projectFeatureReadable` to every
 * route of these families, whatever its method, so no route of them can miss the check.
 */
export function projectFeatureOfRoute(routePath: string): GuardedProjectFeature | null {
  const match = /\/projects\/:[A-Za-z_]+\/(merge_requests|repository|languages|pipelines?|jobs)(?:\/|$)/.exec(routePath);
  if (!match) return null;
  switch (match[1]) {
    case 'merge_requests':
      return 'merge_requests';
    case 'repository':
    case 'languages':
      return 'repository';
    default:
      return 'builds';
  }
}
