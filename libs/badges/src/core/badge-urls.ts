/** What the placeholders of a badge URL are replaced with, for one project. */
export interface BadgeRenderContext {
  /** Full path, `group/subgroup/project`. */
  projectPath: string;
  /** The project's name. */
  projectTitle: string;
  /** The project's path (last segment). */
  projectName: string;
  projectId: number;
  /** GitLab's `project_namespace.to_param`: the full path of the project's own namespace. */
  projectNamespace: string;
  /** Full path of the project's group ('' for a personal project). */
  groupName: string;
  /** Host of the external URL. */
  gitlabServer: string;
  /** Pages domain ('' when the instance serves no pages). */
  gitlabPagesDomain: string;
  defaultBranch: string;
  /** Last commit of the default branch ('' for an empty repository). */
  commitSha: string;
  /** Most recently created tag ('' when there is none). */
  latestTag: string;
}

/** The placeholders GitLab replaces in badge URLs, and where each value comes from. */
export const BADGE_PLACEHOLDERS: Readonly<Record<string, (context: BadgeRenderContext) => string>> = {
  project_path: (c) => c.projectPath,
  project_title: (c) => c.projectTitle,
  project_name: (c) => c.projectName,
  project_id: (c) => String(c.projectId),
  project_namespace: (c) => c.projectNamespace,
  group_name: (c) => c.groupName,
  gitlab_server: (c) => c.gitlabServer,
  gitlab_pages_domain: (c) => c.gitlabPagesDomain,
  default_branch: (c) => c.defaultBranch,
  commit_sha: (c) => c.commitSha,
  latest_tag: (c) => c.latestTag,
};

const PLACEHOLDER_REGEX = new RegExp(`%\\{(${Object.keys(BADGE_PLACEHOLDERS).join('|')})\\}`, 'g');

/** Whether the URL uses a placeholder (`%{name}`) among `names`. */
export const usesPlaceholder = (url: string, name: string): boolean => url.includes(`%{${name}}`);

/**
 * The URL with every known placeholder replaced, values inserted as they are (as GitLab does:
 * `%{project_path}` keeps its slashes). Unknown `%{...}` stay untouched. Without a project
 * (group badges seen from the group) the URL is returned unchanged.
 */
export function renderBadgeUrl(url: string, context: BadgeRenderContext | null): string {
  if (!context) return url;
  return url.replace(PLACEHOLDER_REGEX, (_match, name: string) => BADGE_PLACEHOLDERS[name](context));
}

export const BADGE_URL_MAX = 2048;

/**
 * Why a badge URL is refused (null when fine): it must be an absolute http(s) URL with a host
 * once its placeholders are filled in with sample values.
 */
export function badgeUrlProblem(url: string): string | null {
  if (url.trim() === '') return "can't be blank";
  if (url.length > BADGE_URL_MAX) return `is too long (maximum is ${BADGE_URL_MAX} characters)`;
  if (/[\s\u0000-\u001f\u007f]/.test(url)) return 'must be a valid URL';
  const sample = url.replace(PLACEHOLDER_REGEX, 'placeholder');
  let parsed: URL;
  try {
    parsed = new URL(sample);
  } catch {
    return 'must be a valid URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'is blocked: Only allowed schemes are http, https';
  if (!parsed.hostname) return 'must be a valid URL';
  return null;
}
