/** The console's only way to the service: `/api/v4` with the session cookie (and its CSRF token for writes). */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(messageOf(status, body));
  }
}

function messageOf(status: number, body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    const m = b.message ?? b.error;
    if (typeof m === 'string') return m;
    if (m && typeof m === 'object')
      return Object.entries(m)
        .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(', ') : String(v)}`)
        .join('; ');
  }
  return `Request failed (${status})`;
}

let csrfToken = '';
let onUnauthorized: () => void = () => undefined;

export const setCsrfToken = (token: string): void => void (csrfToken = token);
export const setUnauthorizedHandler = (handler: () => void): void => void (onUnauthorized = handler);

export interface Page<T> {
  items: T[];
  /** The `rel="next"` link of the answer (keyset pagination), if any. */
  next: string | null;
  total: number | null;
}

/** GET requests started before the page rendered (see `prefetch`), taken once by the first `send` of the same URL. */
const prefetched = new Map<string, Promise<Response>>();

const get = (url: string): Promise<Response> => fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' });

/** Starts GET requests now (while the code of the page still loads or waits for the session). */
export function prefetch(urls: string[]): void {
  for (const url of urls) {
    const started = get(url);
    started.catch(() => undefined);
    prefetched.set(url, started);
  }
}

function takePrefetched(url: string): Promise<Response> | undefined {
  const found = prefetched.get(url);
  prefetched.delete(url);
  return found;
}

async function send(method: string, url: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const early = method === 'GET' ? takePrefetched(url) : undefined;
  const response = await (early ?? fetch(url, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) }));
  if (!response.ok) {
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // plain text
    }
    if (response.status === 401) onUnauthorized();
    throw new ApiError(response.status, parsed);
  }
  return response;
}

const json = async <T>(response: Response): Promise<T> => (response.status === 204 ? (undefined as T) : ((await response.json()) as T));

export const api = {
  get: async <T>(path: string): Promise<T> => json<T>(await send('GET', `/api/v4${path}`)),
  post: async <T>(path: string, body?: unknown): Promise<T> => json<T>(await send('POST', `/api/v4${path}`, body ?? {})),
  put: async <T>(path: string, body?: unknown): Promise<T> => json<T>(await send('PUT', `/api/v4${path}`, body ?? {})),
  delete: async (path: string): Promise<void> => void (await send('DELETE', `/api/v4${path}`)),
  /** A list page: `path` relative to /api/v4, or a full `next` link from a previous page. */
  page: async <T>(pathOrUrl: string): Promise<Page<T>> => {
    const response = await send('GET', pathOrUrl.startsWith('http') ? pathOrUrl : `/api/v4${pathOrUrl}`);
    const link = response.headers.get('link') ?? '';
    const next = /<([^>]+)>;\s*rel="next"/.exec(link)?.[1] ?? null;
    const total = response.headers.get('x-total');
    return { items: await json<T[]>(response), next, total: total === null ? null : Number(total) };
  },
};

/** Web sign-in (outside /api/v4): sets the session cookie and returns the user with the CSRF token. */
export async function signIn(login: string, password: string): Promise<CurrentUser> {
  const response = await send('POST', '/users/sign_in', { user: { login, password } });
  const user = await json<CurrentUser>(response);
  setCsrfToken(user.csrf_token);
  return user;
}

export const SESSION_URL = '/users/session';

/** The signed-in user of the session cookie, or null. */
export async function currentSession(): Promise<CurrentUser | null> {
  const response = await (takePrefetched(SESSION_URL) ?? get(SESSION_URL));
  if (!response.ok) {
    // Not signed in: what was fetched early was refused; ask again after the sign-in.
    prefetched.clear();
    return null;
  }
  const user = (await response.json()) as CurrentUser;
  setCsrfToken(user.csrf_token);
  return user;
}

export async function signOut(): Promise<void> {
  await fetch('/users/sign_out', { method: 'DELETE', credentials: 'same-origin', headers: { 'x-csrf-token': csrfToken } });
  setCsrfToken('');
}

export const projectPath = (id: number): string => `/projects/${id}`;

export interface CurrentUser {
  id: number;
  username: string;
  name: string;
  is_admin?: boolean;
  csrf_token: string;
}

export interface UserRef {
  id: number;
  username: string;
  name: string;
}

export interface Project {
  id: number;
  name: string;
  path_with_namespace: string;
  name_with_namespace?: string;
  permissions?: { project_access: { access_level: number } | null; group_access: { access_level: number } | null };
}

export type AlertStatus = 'triggered' | 'acknowledged' | 'resolved' | 'ignored';
export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'info' | 'unknown';

export interface Alert {
  id: number;
  iid: number;
  title: string;
  description: string | null;
  severity: Severity;
  status: AlertStatus;
  service: string | null;
  monitoring_tool: string | null;
  hosts: string[];
  environment?: unknown;
  started_at: string;
  ended_at: string | null;
  created_at: string;
  updated_at: string;
  event_count: number;
  details: Record<string, unknown>;
  assignees: UserRef[];
  issue_iid: number | null;
  issue?: { iid: number; web_url?: string } | null;
  fingerprint?: string | null;
  [key: string]: unknown;
}

export interface AlertNote {
  id: number;
  body: string;
  system: boolean;
  author: UserRef | null;
  created_at: string;
}

export type StatusCounts = Record<'all' | 'open' | AlertStatus, number>;

export const ACCESS = { REPORTER: 20, DEVELOPER: 30, MAINTAINER: 40, OWNER: 50 } as const;

/** The caller's effective access level in a project (administrators act as owners). */
export function accessLevelOf(project: Project | null, user: CurrentUser | null): number {
  if (user?.is_admin) return ACCESS.OWNER;
  const p = project?.permissions;
  return Math.max(p?.project_access?.access_level ?? 0, p?.group_access?.access_level ?? 0);
}
