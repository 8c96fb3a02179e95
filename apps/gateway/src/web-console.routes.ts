import fastifyStatic from '@fastify/static';
import type { ApiRouteConfig } from '@app/api';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the console is served (the `base` of apps/web/vite.config.ts). */
export const WEB_CONSOLE_PREFIX = '/-/console/';

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
};

const PAGE_CONFIG: ApiRouteConfig = {
  openapi: {
    tag: 'Web console',
    summary: 'The on-call web console (a single page; it signs in with the session cookie)',
    description:
      'Static files of the console built from apps/web: hashed assets under `assets/`, the page for every other path. 503 when the console is not built.',
    security: [],
    success: { status: 200, mediaType: 'text/html' },
  },
};

/**
 * The web console (apps/web, built into `dir` by `npm run build`) as static files under
 * `/-/console/`: hashed assets cached for a year, every other path the single page
 * (`index.html`, never cached), which routes in the browser. Plain Fastify routes, outside
 * the API's guards: the page calls `/api/v4` with the session cookie.
 */
export function registerWebConsole(fastify: FastifyInstance, dir: string): void {
  const indexFile = join(dir, 'index.html');
  const built = existsSync(indexFile);
  const indexHtml = built ? readFileSync(indexFile) : null;
  void fastify.register(async (scope) => {
    if (built) await scope.register(fastifyStatic, { root: dir, serve: false });
    const page = (reply: FastifyReply) => {
      reply.headers(SECURITY_HEADERS);
      if (!indexHtml) return reply.code(503).type('text/plain; charset=utf-8').send('The web console is not built: run `npm run build`.\n');
      return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(indexHtml);
    };
    scope.get(WEB_CONSOLE_PREFIX.slice(0, -1), { config: PAGE_CONFIG }, (_request, reply) => page(reply));
    scope.get(`${WEB_CONSOLE_PREFIX}*`, { config: PAGE_CONFIG }, (request, reply) => {
      const path = (request.params as { '*': string })['*'] ?? '';
      const last = path.split('/').pop() ?? '';
      // A file name (with an extension) is a file; any other path is a route of the page.
      if (!built || !last.includes('.')) return page(reply);
      reply.headers(SECURITY_HEADERS);
      // Hashed file names under assets/ never change: cached for a year.
      const immutable = path.startsWith('assets/');
      return reply.sendFile(path, immutable ? { maxAge: '365d', immutable: true } : { maxAge: 0 });
    });
  });
}
