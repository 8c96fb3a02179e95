import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '../http/api-prefix';
import { JSON_CONTENT_TYPE } from '../http/json-content-type';
import { buildOpenApiDocument, type OpenApiDocumentOptions } from './openapi-document';
import { recordedRoutes, type PlainRouteDoc } from '../http/route-recorder';

export const OPENAPI_DOCUMENT_PATH = `${API_PREFIX}/openapi.json`;
export const OPENAPI_VIEWER_PATH = `${API_PREFIX}/docs`;

/** The viewer's files, served from `swagger-ui-dist` (nothing else of that folder is reachable). */
const VIEWER_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));

const viewerPage = (): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Service API v4</title>
<link rel="icon" type="image/png" href="${OPENAPI_VIEWER_PATH}/favicon-32x32.png">
<link rel="stylesheet" href="${OPENAPI_VIEWER_PATH}/swagger-ui.css">
</head>
<body>
<div id="viewer"></div>
<script src="${OPENAPI_VIEWER_PATH}/swagger-ui-bundle.js"></script>
<script src="${OPENAPI_VIEWER_PATH}/swagger-ui-standalone-preset.js"></script>
<script src="${OPENAPI_VIEWER_PATH}/viewer.js"></script>
</body>
</html>
`;

// A file of its own rather than an inline script, so that a strict Content-Security-Policy can forbid inline code.
const viewerScript = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(OPENAPI_DOCUMENT_PATH)}, dom_id: '#viewer', deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });
`;

const PUBLIC: Pick<PlainRouteDoc, 'tag' | 'security'> = { tag: 'OpenAPI', security: [] };

/**
 * `GET /api/v4/openapi.json` (the OpenAPI 3.1 document of every route, built once, on first
 * request, when every route exists) and the viewer at `GET /api/v4/docs`. Public, like
 * GitLab's own OpenAPI description. Register them last, after `app.init()`.
 */
export function registerOpenApiRoutes(app: INestApplication, fastify: FastifyInstance, options: OpenApiDocumentOptions): void {
  let document: OpenAPIObject | undefined;
  const documentJson = (): string => JSON.stringify((document ??= buildOpenApiDocument(app, recordedRoutes(fastify), options)));
  let json: string | undefined;
  const assets = new Map<string, Buffer>();

  fastify.get(OPENAPI_DOCUMENT_PATH, { config: { openapi: { ...PUBLIC, summary: 'This OpenAPI document' } } }, async (_request, reply) =>
    reply.header('content-type', JSON_CONTENT_TYPE).send((json ??= documentJson())),
  );
  fastify.get(
    OPENAPI_VIEWER_PATH,
    { config: { openapi: { ...PUBLIC, summary: 'Browse this OpenAPI document', success: { status: 200, mediaType: 'text/html' } } } },
    async (_request, reply) => reply.header('content-type', 'text/html; charset=utf-8').send(viewerPage()),
  );
  fastify.get(
    `${OPENAPI_VIEWER_PATH}/:asset`,
    { config: { openapi: { ...PUBLIC, summary: 'A file of the OpenAPI viewer', success: { status: 200, mediaType: 'text/javascript' } } } },
    async (request, reply) => {
      const { asset } = request.params as { asset: string };
      if (asset === 'viewer.js') return reply.header('content-type', VIEWER_ASSETS['swagger-ui-bundle.js']).send(viewerScript);
      const type = Object.hasOwn(VIEWER_ASSETS, asset) ? VIEWER_ASSETS[asset] : undefined;
      if (!type) return reply.code(404).header('content-type', 'application/json').send({ error: '404 Not Found' });
      const body = assets.get(asset) ?? assets.set(asset, readFileSync(join(SWAGGER_UI_DIR, asset))).get(asset);
      return reply.header('content-type', type).header('cache-control', 'public, max-age=86400').send(body);
    },
  );
}
