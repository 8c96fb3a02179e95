import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { openApiPath, recordedRoutes } from '@app/api';
import type { FastifyInstance } from 'fastify';
import { api, createUserWithToken, startTestGateway, type TestGateway } from './support/test-gateway';

const PACKAGE_VERSION = (JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { version: string }).version;

interface Operation {
  summary?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Record<string, unknown> }>;
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
}
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
    securitySchemes: Record<string, Record<string, unknown>>;
  };
};

describe('OpenAPI description, /version and /metadata', () => {
  let gw: TestGateway;
  let document: Document;

  beforeAll(async () => {
    gw = await startTestGateway('openapi');
    const res = await api<Document>(gw.baseUrl, 'GET', '/api/v4/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    document = res.body;
  });

  afterAll(async () => gw?.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(structuredClone(document) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every route the server answers, each with a summary and a success response', () => {
    const fastify = gw.app.getHttpAdapter().getInstance() as FastifyInstance;
    const missing: string[] = [];
    const routes = recordedRoutes(fastify);
    expect(routes.length).toBeGreaterThan(100);
    for (const route of routes) {
      for (const method of route.methods) {
        if (method === 'HEAD') continue;
        const operation = document.paths[openApiPath(route.url)]?.[method.toLowerCase()];
        if (!operation) {
          missing.push(`${method} ${route.url}`);
          continue;
        }
        expect(operation.summary).toEqual(expect.any(String));
        expect(Object.keys(operation.responses).some((status) => status.startsWith('2'))).toBe(true);
      }
    }
    expect(missing).toEqual([]);
  });

  it('has every plain Fastify route (outside the controllers) describe itself', () => {
    const fastify = gw.app.getHttpAdapter().getInstance() as FastifyInstance;
    const plain = recordedRoutes(fastify).filter((route) => {
      if (route.methods.every((method) => method === 'HEAD')) return false;
      const operation = document.paths[openApiPath(route.url)]?.[route.methods[0].toLowerCase()] as Operation & { operationId?: string };
      return !operation?.operationId?.includes('.');
    });
    expect(plain.length).toBeGreaterThan(3);
    expect(plain.filter((route) => route.doc === undefined).map((route) => `${route.methods.join(',')} ${route.url}`)).toEqual([]);
  });

  it('declares the authentication schemes of the spec', () => {
    const schemes = document.components.securitySchemes;
    expect(schemes.privateTokenHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN' });
    expect(schemes.privateTokenQuery).toMatchObject({ type: 'apiKey', in: 'query', name: 'private_token' });
    expect(schemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.oauth2).toMatchObject({ type: 'oauth2' });
    expect(schemes.jobTokenHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'JOB-TOKEN' });
    expect(schemes.jobTokenQuery).toMatchObject({ type: 'apiKey', in: 'query', name: 'job_token' });
    expect(schemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: '_service_session' });
  });

  it('describes parameters, bodies, security and error shapes from the controllers and DTOs', () => {
    const createProject = document.paths['/api/v4/projects'].post;
    const ref = createProject.requestBody?.content['application/json'].schema.$ref ?? '';
    const body = document.components.schemas[ref.replace('#/components/schemas/', '')];
    expect(body.properties).toHaveProperty('name');
    expect(body.properties).toHaveProperty('visibility');
    expect(createProject.security).toEqual(expect.arrayContaining([{ privateTokenHeader: [] }, { sessionCookie: [] }]));
    expect(createProject.security).not.toContainEqual({});
    expect(createProject.responses['401']).toBeDefined();

    const listProjects = document.paths['/api/v4/projects'].get;
    expect(listProjects.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['search', 'order_by', 'page', 'per_page']));
    expect(listProjects.security).toContainEqual({}); // anonymous callers see public projects

    const getProject = document.paths['/api/v4/projects/{id}'].get;
    expect(getProject.parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path', required: true }));

    const deleteProject = document.paths['/api/v4/projects/{id}'].delete;
    expect(deleteProject.responses['412']).toBeDefined();
    expect(deleteProject.responses['404'].content?.['application/json'].schema).toEqual({
      oneOf: [{ $ref: '#/components/schemas/MessageError' }, { $ref: '#/components/schemas/ErrorError' }],
    });

    const notify = Object.entries(document.paths).find(([path]) => path.endsWith('/alerts/notify.json'));
    expect(notify?.[1].post.security).toEqual([{ integrationKey: [] }]);
    expect(document.paths['/-/readiness'].get.security).toEqual([]);
  });

  it('serves a viewer at /api/v4/docs with its files, and nothing else of the viewer package', async () => {
    const page = await fetch(`${gw.baseUrl}/api/v4/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('/api/v4/docs/swagger-ui-bundle.js');

    const bundle = await fetch(`${gw.baseUrl}/api/v4/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);

    const script = await (await fetch(`${gw.baseUrl}/api/v4/docs/viewer.js`)).text();
    expect(script).toContain('"/api/v4/openapi.json"');

    for (const path of ['/api/v4/docs/package.json', '/api/v4/docs/..%2F..%2Fpackage.json', '/api/v4/docs/index.html']) {
      expect((await fetch(`${gw.baseUrl}${path}`)).status).toBe(404);
    }
  });

  it('answers /version and /metadata to authenticated callers as GitLab does, 401 to anonymous ones', async () => {
    const reader = await createUserWithToken(gw, 'metadata-reader', { scopes: ['read_user'] });
    for (const path of ['/api/v4/metadata', '/api/v4/version']) {
      expect((await api(gw.baseUrl, 'GET', path)).status).toBe(401);
      const res = await api(gw.baseUrl, 'GET', path, { token: reader.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        version: PACKAGE_VERSION,
        revision: expect.stringMatching(/^([0-9a-f]{7,40}|unknown)$/),
        kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
        enterprise: true,
      });
    }
  });
});
