/** Route label of requests that matched no route (404s): keeps raw URLs out of label values. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The parts of a Fastify request the route label is made of. */
export interface RoutedRequest {
  is404?: boolean;
  routeOptions?: { url?: string };
}

/**
 * The route pattern of a request (`/api/v4/projects/:id`), never its raw URL, so that label
 * values stay bounded; `unmatched` when no route matched.
 */
export function routeLabel(request: RoutedRequest): string {
  const url = request.routeOptions?.url;
  if (request.is404 || !url) return UNMATCHED_ROUTE;
  return url.length > 1 && url.endsWith('/') ? url.slice(0, -1) : url;
}
