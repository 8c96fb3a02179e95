/** What pagination needs from a request: its target as received (path still percent-encoded). */
export interface PaginationRequest {
  url: string;
  raw?: { url?: string };
  /** The parsed query string (`page`, `per_page`, `order_by`, ...). */
  query?: unknown;
}

/** Anything headers can be set on (a Fastify reply). */
export interface HeaderSink {
  header(name: string, value: string): unknown;
}

/** Path and raw query string of the request target, exactly as the client sent them. */
export function splitRequestTarget(request: PaginationRequest): { path: string; query: string } {
  const target = request.raw?.url ?? request.url;
  const queryIndex = target.indexOf('?');
  return queryIndex === -1 ? { path: target, query: '' } : { path: target.slice(0, queryIndex), query: target.slice(queryIndex + 1) };
}

/** Characters a client may have sent raw that cannot appear inside `<...>` of a Link header. */
const escapeUnsafe = (url: string): string => url.replace(/[<>"\s\\^`{|}]/g, (c) => encodeURIComponent(c));

function decodeKey(rawKey: string): string {
  try {
    return decodeURIComponent(rawKey.replace(/\+/g, ' '));
  } catch {
    return rawKey;
  }
}

/**
 * A complete URL for another page of the same listing: `externalUrl` + the request path +
 * every query parameter of the request (kept as sent, in order), minus `remove`, with `set`
 * appended (its keys are removed from the original first).
 */
export function buildPageUrl(
  externalUrl: string,
  target: { path: string; query: string },
  set: ReadonlyArray<readonly [string, string]>,
  remove: readonly string[] = [],
): string {
  const dropped = new Set([...remove, ...set.map(([key]) => key)]);
  const kept = target.query
    .split('&')
    .filter((pair) => pair.length > 0)
    .filter((pair) => {
      const equals = pair.indexOf('=');
      return !dropped.has(decodeKey(equals === -1 ? pair : pair.slice(0, equals)));
    });
  const added = set.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
  const query = [...kept, ...added].join('&');
  const base = externalUrl.replace(/\/+$/, '');
  return escapeUnsafe(`${base}${target.path}${query.length > 0 ? `?${query}` : ''}`);
}

/** One `Link` header entry (RFC 8288). */
export const linkEntry = (url: string, rel: string): string => `<${url}>; rel="${rel}"`;
