import type { FastifyInstance } from 'fastify';

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const rank = (method: string): number => {
  const index = METHOD_ORDER.indexOf(method);
  return index === -1 ? METHOD_ORDER.length : index;
};

/**
 * The methods for which a route matches `url` (a request target, query string allowed),
 * in a stable order, for the `Allow` header of a 405. A route that would only match with an
 * empty path parameter (`/projects//issues`) does not count, as Nest answers it with 404.
 */
export function findAllowedMethods(instance: FastifyInstance, url: string): string[] {
  const queryIndex = url.indexOf('?');
  const path = queryIndex === -1 ? url : url.slice(0, queryIndex);
  const allowed = instance.supportedMethods.filter((method) => {
    const route = instance.findRoute({ method: method as never, url: path });
    if (!route) return false;
    const params = (route.params ?? {}) as Record<string, string | undefined>;
    return Object.entries(params).every(([name, value]) => name === '*' || (value !== undefined && value !== ''));
  });
  return [...new Set(allowed)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}
