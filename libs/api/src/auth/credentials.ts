import type { Credentials } from './principal';

export const SESSION_COOKIE = '_service_session';

interface RequestLike {
  headers: Record<string, string | string[] | undefined>;
  query?: unknown;
  cookies?: Record<string, string | undefined>;
}

const first = (value: unknown): string | undefined => {
  const v = Array.isArray(value) ? value[0] : value;
  return typeof v === 'string' && v.length > 0 ? v : undefined;
};

/** Reads every credential form of the Authentication table from a request. */
export function extractCredentials(request: RequestLike): Credentials {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const authorization = first(request.headers['authorization']);
  const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  return {
    privateToken: first(request.headers['private-token']) ?? first(query['private_token']),
    bearer,
    accessToken: first(query['access_token']),
    jobToken: first(request.headers['job-token']) ?? first(query['job_token']),
    session: request.cookies?.[SESSION_COOKIE] || undefined,
    csrfToken: first(request.headers['x-csrf-token']),
  };
}

export const hasAnyCredential = (c: Credentials): boolean => Boolean(c.privateToken || c.bearer || c.accessToken || c.jobToken || c.session);

/** The sudo identifier (query `sudo` or header `Sudo`), if any. */
export function extractSudo(request: RequestLike): string | undefined {
  const query = (request.query ?? {}) as Record<string, unknown>;
  return first(query['sudo']) ?? first(request.headers['sudo']);
}
