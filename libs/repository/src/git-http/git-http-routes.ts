/** Deepest project path served (20 levels of groups, then the project). */
export const MAX_PROJECT_PATH_SEGMENTS = 21;

const segments = (count: number): string => Array.from({ length: count }, (_, i) => `:s${i}`).join('/');
const routes = (suffix: string): string[] => Array.from({ length: MAX_PROJECT_PATH_SEGMENTS - 1 }, (_, i) => `${segments(i + 2)}/${suffix}`);

/**
 * Git smart HTTP routes, outside /api/v4, one per project path depth (namespace paths contain
 * `/`): `/:s0/:s1/info/refs` … The last segment is the project path, with or without `.git`.
 */
export const GIT_INFO_REFS_ROUTES = routes('info/refs');
export const GIT_UPLOAD_PACK_ROUTES = routes('git-upload-pack');
export const GIT_RECEIVE_PACK_ROUTES = routes('git-receive-pack');
/** For the gateway's list of routes served outside /api/v4. */
export const GIT_HTTP_ROUTES: string[] = [...GIT_INFO_REFS_ROUTES, ...GIT_UPLOAD_PACK_ROUTES, ...GIT_RECEIVE_PACK_ROUTES];

/** Media types of git's request bodies: streamed to git, never buffered or size-limited like API bodies. */
export const GIT_REQUEST_MEDIA_TYPES = ['application/x-git-upload-pack-request', 'application/x-git-receive-pack-request'];

/** The project's full path from a matched route's parameters (`.git` dropped). */
export function projectPathOfGitParams(params: Record<string, string | undefined>): string {
  const parts: string[] = [];
  for (let i = 0; i < MAX_PROJECT_PATH_SEGMENTS; i++) {
    const part = params[`s${i}`];
    if (part === undefined) break;
    parts.push(part);
  }
  if (parts.length > 0) parts[parts.length - 1] = parts[parts.length - 1].replace(/\.git$/, '');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) return '';
  return parts.join('/');
}
