import { ProjectEntity, ProjectWithNamespace, VISIBILITY_LEVEL, Visibility } from '@app/namespaces';
import { VISIBILITY_LEVELS, visibilityOfLevel } from '../archive/archive-format';
import { bool, Row, str } from './record-fields';

/** `tree/project.json` both ways: the project's own attributes (GitLab ignores `default_branch`). */
export function projectAttributes(project: ProjectWithNamespace, description: string | null): Record<string, unknown> {
  const settings = project.settings ?? {};
  return {
    description: description ?? project.description,
    visibility_level: VISIBILITY_LEVELS[project.visibility],
    archived: project.archived,
    merge_requests_ff_only_enabled: project.mergeMethod === 'ff',
    merge_requests_rebase_enabled: project.mergeMethod === 'rebase_merge',
    topics: project.topics,
    default_branch: project.defaultBranch,
    only_allow_merge_if_pipeline_succeeds: settings.only_allow_merge_if_pipeline_succeeds ?? false,
    only_allow_merge_if_all_discussions_are_resolved: settings.only_allow_merge_if_all_discussions_are_resolved ?? false,
    remove_source_branch_after_merge: settings.remove_source_branch_after_merge ?? true,
    project_feature: {
      issues_access_level: project.issuesEnabled ? 20 : 0,
      merge_requests_access_level: project.mergeRequestsEnabled ? 20 : 0,
    },
  };
}

export type ImportedProjectChanges = Partial<
  Pick<ProjectEntity, 'description' | 'visibility' | 'archived' | 'mergeMethod' | 'topics' | 'issuesEnabled' | 'mergeRequestsEnabled'>
>;

/** The project's attributes from `tree/project.json`; `override_params` given with the request win (they were applied at creation). */
export function importedProjectChanges(json: Row, overrides: Record<string, unknown>, project: ProjectWithNamespace): ImportedProjectChanges {
  const update: ImportedProjectChanges = {};
  const takes = (key: string) => !(key in overrides) && key in json;
  if (takes('description')) update.description = str(json.description, 2000);
  const visibility = visibilityOfLevel(json.visibility_level);
  if (!('visibility' in overrides) && visibility) {
    // Never more visible than the namespace allows (GitLab lowers it the same way).
    const parent = project.namespace.kind === 'group' ? project.namespace.visibility : 'public';
    update.visibility = (VISIBILITY_LEVEL[visibility] <= VISIBILITY_LEVEL[parent] ? visibility : parent) as Visibility;
  }
  if (takes('archived')) update.archived = bool(json.archived);
  if (!('merge_method' in overrides))
    update.mergeMethod = json.merge_requests_ff_only_enabled === true ? 'ff' : json.merge_requests_rebase_enabled === true ? 'rebase_merge' : 'merge';
  if (takes('topics') && Array.isArray(json.topics)) update.topics = json.topics.filter((t): t is string => typeof t === 'string').slice(0, 50);
  const feature = (json.project_feature ?? {}) as Row;
  if (!('issues_enabled' in overrides) && typeof feature.issues_access_level === 'number') update.issuesEnabled = feature.issues_access_level > 0;
  if (!('merge_requests_enabled' in overrides) && typeof feature.merge_requests_access_level === 'number')
    update.mergeRequestsEnabled = feature.merge_requests_access_level > 0;
  return update;
}
