/**
 * GitLab's project export format (`Gitlab::ImportExport`): a gzipped tar with `VERSION`,
 * `tree/project.json` (the project's own attributes), one NDJSON file per relation under
 * `tree/project/` (each line one record, its sub-relations nested as GitLab nests them) and
 * `project.bundle` (a `git bundle` of every ref). Never rename these: other instances read them.
 */
export const EXPORT_FORMAT_VERSION = '0.2.4';
export const VERSION_FILE = 'VERSION';
export const PROJECT_JSON = 'tree/project.json';
export const RELATIONS_DIR = 'tree/project';
export const BUNDLE_FILE = 'project.bundle';

/** The relations this service writes and reads, in the order an import needs them. */
export const RELATIONS = [
  'project_members',
  'labels',
  'milestones',
  'issues',
  'merge_requests',
  'protected_branches',
  'project_badges',
  'snippets',
  'ci_pipelines',
] as const;
export type RelationName = (typeof RELATIONS)[number];

export const relationFile = (relation: string): string => `${RELATIONS_DIR}/${relation}.ndjson`;

/** `visibility_level` of GitLab's records. */
export const VISIBILITY_LEVELS = { private: 0, internal: 10, public: 20 } as const;
export const visibilityOfLevel = (level: unknown): 'private' | 'internal' | 'public' | null =>
  level === 0 ? 'private' : level === 10 ? 'internal' : level === 20 ? 'public' : null;

/**
 * Whether this service reads an archive of `version`: the same major and minor number (GitLab
 * refuses any other version than its own; 0.2.x archives are all read here).
 */
export function supportedVersion(version: string): boolean {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(version.trim());
  return match !== null && match[1] === '0' && match[2] === '2';
}

/**
 * The download's file name, as GitLab builds it: `<yyyy-mm-dd_hh-mm-SSS>_<full path with / as _>_export.tar.gz`.
 */
export function exportFileName(fullPath: string, at: Date): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const stamp = `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}_${pad(at.getUTCHours())}-${pad(at.getUTCMinutes())}-${pad(at.getUTCMilliseconds(), 3)}`;
  return `${stamp}_${fullPath.replace(/\//g, '_').replace(/[^A-Za-z0-9._-]/g, '')}_export.tar.gz`;
}
