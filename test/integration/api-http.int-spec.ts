import 'reflect-metadata';
import { request as httpRequest } from 'node:http';
import { deflateSync, gzipSync } from 'node:zlib';
import { Body, Controller, Delete, Get, Module, Param, Post, Put, Query, Req } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '@app/config';
import { AcceptsContentTypes, AcceptsTextPlain, configureHttpApp, createFastifyAdapter, ProjectOrGroupRef, ProjectRefPipe } from '@app/api';

/* Fixture controllers: the HTTP layer under test is real; these only echo what they receive. */

@Controller('echo')
class EchoController {
  @Get()
  query(@Query() query: unknown): unknown {
    return { query };
  }

  @Post()
  body(@Body() body: unknown): unknown {
    return { body };
  }

  @Put()
  replace(@Body() body: unknown): unknown {
    return { body };
  }

  @Post('text')
  @AcceptsTextPlain()
  text(@Body() body: unknown): unknown {
    return { body, type: typeof body };
  }

  @Post('binary')
  @AcceptsContentTypes('application/octet-stream')
  binary(@Body() body: Buffer): unknown {
    return { length: body.length, isBuffer: Buffer.isBuffer(body) };
  }

  @Get('request-id')
  requestId(@Req() request: FastifyRequest): unknown {
    return { id: request.id };
  }

  @Get('string')
  stringResult(): string {
    return 'plain words';
  }
}

@Controller('projects')
class ProjectsController {
  @Get(':id')
  show(@Param('id') id: string, @Param('id', ProjectRefPipe) ref: ProjectOrGroupRef): unknown {
    return { id, ref };
  }

  @Get(':id/repository/files/:file_path')
  file(@Param('id') id: string, @Param('file_path') filePath: string): unknown {
    return { id, filePath };
  }

  @Delete(':id')
  remove(): void {
    return undefined;
  }
}

@Controller('-/health')
class HealthController {
  @Get()
  health(): string {
    return 'OK';
  }
}

@Module({ controllers: [EchoController, ProjectsController, HealthController] })
class HttpFixtureModule {}

const MAX_URL_LENGTH = 2048;
const BODY_LIMIT = 4096;

describe('HTTP conventions (createFastifyAdapter + configureHttpApp)', () => {
  let app: NestFastifyApplication;
  let base: string;
  let port: number;

  beforeAll(async () => {
    const config = AppConfig.fromEnvironment({
      EXTERNAL_URL: 'https://gitlab.example.com',
      MAX_URL_LENGTH: String(MAX_URL_LENGTH),
      BODY_LIMIT: String(BODY_LIMIT),
    });
    app = await NestFactory.create<NestFastifyApplication>(HttpFixtureModule, createFastifyAdapter(config), { logger: false });
    configureHttpApp(app, config, { unprefixedRoutes: ['-/health'] });
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as { port: number }).port;
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await app.close();
  });

  const call = (path: string, init: RequestInit = {}): Promise<Response> => fetch(`${base}${path}`, init);

  /** For targets fetch would normalize: sends the request line exactly as given. */
  const rawCall = (
    method: string,
    target: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; headers: Record<string, unknown>; body: string }> =>
    new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path: target, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('error', reject);
      req.end();
    });

  describe('path encoding', () => {
    it('keeps %2F inside a path parameter: the router does not split on it and the handler gets the decoded path', async () => {
      const res = await call('/api/v4/projects/group%2Fsub%2Fproj');
      expect(res.status).toBe(200);
      await expect(res.json()).resolves.toEqual({ id: 'group/sub/proj', ref: { kind: 'path', path: 'group/sub/proj' } });
    });

    it('routes an encoded project path followed by more segments to the nested route', async () => {
      const res = await call('/api/v4/projects/group%2Fproj/repository/files/docs%2Fguide%2FREADME.md');
      expect(res.status).toBe(200);
      await expect(res.json()).resolves.toEqual({ id: 'group/proj', filePath: 'docs/guide/README.md' });
    });

    it('does not match an unencoded namespace path (the slash is a separator there)', async () => {
      const res = await call('/api/v4/projects/group/sub/proj');
      expect(res.status).toBe(404);
      await expect(res.json()).resolves.toEqual({ error: '404 Not Found' });
    });

    it('answers a wrongly percent-encoded path with 404 {"error":"404 Not Found"}', async () => {
      const res = await rawCall('GET', '/api/v4/projects/%E0%A4%A');
      expect(res.status).toBe(404);
      expect(JSON.parse(res.body)).toEqual({ error: '404 Not Found' });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    });

    it('answers an invalid numeric or path reference with the resource 404', async () => {
      const res = await call('/api/v4/projects/noslash');
      expect(res.status).toBe(404);
      await expect(res.json()).resolves.toEqual({ message: '404 Project Not Found' });
    });

    it('accepts numeric ids', async () => {
      const res = await call('/api/v4/projects/42');
      await expect(res.json()).resolves.toEqual({ id: '42', ref: { kind: 'id', id: 42 } });
    });
  });

  describe('query strings', () => {
    it('parses name[]= arrays, name[key]= hashes and name[0][key]= arrays of hashes', async () => {
      const query =
        'labels[]=bug&labels[]=ui&filter[state]=opened&filter[scope]=all&actions[0][action]=create&actions[0][file_path]=a.txt&actions[1][action]=delete';
      const res = await call(`/api/v4/echo?${query}`);
      expect(res.status).toBe(200);
      await expect(res.json()).resolves.toEqual({
        query: {
          labels: ['bug', 'ui'],
          filter: { state: 'opened', scope: 'all' },
          actions: [{ action: 'create', file_path: 'a.txt' }, { action: 'delete' }],
        },
      });
    });

    it('decodes + as a space and %2B as a literal plus', async () => {
      const res = await call('/api/v4/echo?created_after=2024-01-01T10:00:00%2B02:00&search=two+words');
      await expect(res.json()).resolves.toEqual({ query: { created_after: '2024-01-01T10:00:00+02:00', search: 'two words' } });
    });

    it('keeps the last value of a repeated plain key (as Rack does)', async () => {
      const res = await call('/api/v4/echo?state=opened&state=closed');
      await expect(res.json()).resolves.toEqual({ query: { state: 'closed' } });
    });

    it('refuses nesting deeper than the limit with 400 instead of truncating it silently', async () => {
      const res = await call(`/api/v4/echo?a${'[x]'.repeat(12)}=1`);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { message: string };
      expect(body.message).toMatch(/^400 Bad request - /);
    });
  });

  describe('request bodies', () => {
    it('parses application/x-www-form-urlencoded with the same bracket rules as the query string', async () => {
      const res = await call('/api/v4/echo', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'labels[]=bug&labels[]=ui&filter[state]=opened&actions[0][action]=create&actions[0][content]=x+y&tz=%2B01:00',
      });
      expect(res.status).toBe(201);
      await expect(res.json()).resolves.toEqual({
        body: { labels: ['bug', 'ui'], filter: { state: 'opened' }, actions: [{ action: 'create', content: 'x y' }], tz: '+01:00' },
      });
    });

    it('parses JSON bodies with native arrays and objects', async () => {
      const res = await call('/api/v4/echo', {
        method: 'PUT',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ labels: ['a'], nested: { on: true } }),
      });
      expect(res.status).toBe(200);
      await expect(res.json()).resolves.toEqual({ body: { labels: ['a'], nested: { on: true } } });
    });

    it('answers malformed JSON with 400, not 500', async () => {
      const res = await call('/api/v4/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name": ' });
      expect(res.status).toBe(400);
      await expect(res.json()).resolves.toEqual({ message: '400 Bad request - The request body is not valid JSON' });
    });

    it('answers a JSON body whose top level is not an object or array with 400', async () => {
      for (const body of ['"text"', '42', 'null', 'true']) {
        const res = await call('/api/v4/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        expect(res.status).toBe(400);
        await expect(res.json()).resolves.toEqual({ message: '400 Bad request - The request body must be a JSON object or array' });
      }
    });

    it('refuses prototype poisoning in JSON with 400', async () => {
      const res = await call('/api/v4/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"__proto__":{"admin":true}}' });
      expect(res.status).toBe(400);
    });

    it('refuses text/plain with 415 on a route that does not opt in', async () => {
      const res = await call('/api/v4/echo', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
      expect(res.status).toBe(415);
      await expect(res.json()).resolves.toEqual({ message: '415 Unsupported Media Type' });
    });

    it('accepts text/plain on a route declared with @AcceptsTextPlain()', async () => {
      const res = await call('/api/v4/echo/text', { method: 'POST', headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'hello' });
      expect(res.status).toBe(201);
      await expect(res.json()).resolves.toEqual({ body: 'hello', type: 'string' });
    });

    it('refuses other media types with 415 unless the route lists them', async () => {
      const refused = await call('/api/v4/echo', { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<a/>' });
      expect(refused.status).toBe(415);
      await expect(refused.json()).resolves.toEqual({ message: '415 Unsupported Media Type' });

      const accepted = await call('/api/v4/echo/binary', {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: new Uint8Array([1, 2, 3]),
      });
      expect(accepted.status).toBe(201);
      await expect(accepted.json()).resolves.toEqual({ length: 3, isBuffer: true });
    });

    it('answers a body over the limit with 413 and a JSON message', async () => {
      const res = await call('/api/v4/echo', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ data: 'x'.repeat(BODY_LIMIT + 10) }),
      });
      expect(res.status).toBe(413);
      await expect(res.json()).resolves.toEqual({ message: `413 Request Entity Too Large - the request body is larger than ${BODY_LIMIT} bytes` });
    });
  });

  describe('URL length', () => {
    it('answers a URL longer than MAX_URL_LENGTH with 414', async () => {
      const res = await call(`/api/v4/echo?search=${'a'.repeat(MAX_URL_LENGTH)}`);
      expect(res.status).toBe(414);
      await expect(res.json()).resolves.toEqual({ error: '414 Request-URI Too Large' });
    });

    it('answers 414 (not Node’s 431) for a URL beyond Node’s default 16 KiB header limit', async () => {
      const res = await call(`/api/v4/echo?search=${'a'.repeat(20_000)}`);
      expect(res.status).toBe(414);
    });

    it('answers 414 for an over-long path parameter', async () => {
      const res = await call(`/api/v4/projects/${'a'.repeat(MAX_URL_LENGTH + 1)}`);
      expect(res.status).toBe(414);
      await expect(res.json()).resolves.toEqual({ error: '414 Request-URI Too Large' });
    });

    it('serves a URL just under the limit', async () => {
      const path = '/api/v4/echo?search=';
      const res = await call(`${path}${'a'.repeat(MAX_URL_LENGTH - path.length)}`);
      expect(res.status).toBe(200);
    });
  });

  describe('routing and versions', () => {
    it('answers an unknown route with 404 {"error":"404 Not Found"}', async () => {
      const res = await call('/api/v4/nothing/here');
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      await expect(res.json()).resolves.toEqual({ error: '404 Not Found' });
    });

    it.each(['/api/v3/echo', '/api/v5/echo', '/api/echo', '/echo'])('serves only version 4: %s is 404', async (path) => {
      const res = await call(path);
      expect(res.status).toBe(404);
      await expect(res.json()).resolves.toEqual({ error: '404 Not Found' });
    });

    it('answers a known path with an unsupported method with 405 and an Allow header', async () => {
      const res = await call('/api/v4/echo', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, POST, PUT');
      await expect(res.json()).resolves.toEqual({ error: '405 Method Not Allowed' });
    });

    it('answers 405 for a parameterized path too', async () => {
      const res = await call('/api/v4/projects/42', { method: 'POST' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, DELETE');
    });

    it('answers OPTIONS on a known path with 204 and Allow', async () => {
      const res = await call('/api/v4/projects/42', { method: 'OPTIONS' });
      expect(res.status).toBe(204);
      expect(res.headers.get('allow')).toBe('GET, HEAD, DELETE, OPTIONS');
    });

    it('keeps unprefixed routes outside /api/v4 as they are', async () => {
      const res = await call('/-/health');
      expect(res.status).toBe(200);
      await expect(res.text()).resolves.toBe('OK');
      expect((await call('/api/v4/-/health')).status).toBe(404);
    });
  });

  describe('responses', () => {
    it('sends JSON with an application/json content type', async () => {
      const res = await call('/api/v4/echo?a=1');
      expect(res.headers.get('content-type')).toBe('application/json');
    });

    it('sends a string result as a JSON string', async () => {
      const res = await call('/api/v4/echo/string');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      await expect(res.json()).resolves.toBe('plain words');
    });

    it('answers a DELETE without result with 204, no body and no JSON content type', async () => {
      const res = await call('/api/v4/projects/42', { method: 'DELETE' });
      expect(res.status).toBe(204);
      expect(res.headers.get('content-type')).toBeNull();
      await expect(res.text()).resolves.toBe('');
    });
  });

  describe('request id', () => {
    it('generates a UUID request id and echoes it in X-Request-Id', async () => {
      const res = await call('/api/v4/echo/request-id');
      const { id } = (await res.json()) as { id: string };
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(res.headers.get('x-request-id')).toBe(id);
    });

    it('reuses an acceptable incoming X-Request-Id and replaces an unsafe one', async () => {
      const reused = await call('/api/v4/echo/request-id', { headers: { 'x-request-id': 'abc-123.def' } });
      await expect(reused.json()).resolves.toEqual({ id: 'abc-123.def' });

      const replaced = await call('/api/v4/echo/request-id', { headers: { 'x-request-id': 'x'.repeat(300) } });
      const { id } = (await replaced.json()) as { id: string };
      expect(id).not.toBe('x'.repeat(300));
      expect(id).toHaveLength(36);
    });

    it('sets X-Request-Id on 404s too, including those the router answers itself', async () => {
      const res = await call('/api/v4/nowhere', { headers: { 'x-request-id': 'trace-404' } });
      expect(res.headers.get('x-request-id')).toBe('trace-404');
      const badUrl = await rawCall('GET', '/api/v4/projects/%zz', { 'x-request-id': 'trace-bad-url' });
      expect(badUrl.status).toBe(404);
      expect(badUrl.headers['x-request-id']).toBe('trace-bad-url');
    });
  });
  describe('content encoding and charset', () => {
    const post = (body: Buffer | string, headers: Record<string, string>) =>
      call('/api/v4/echo', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

    it('decodes gzip and deflate bodies', async () => {
      const json = JSON.stringify({ hello: 'wörld' });
      for (const [encoding, body] of [
        ['gzip', gzipSync(json)],
        ['x-gzip', gzipSync(json)],
        ['deflate', deflateSync(json)],
        ['identity', Buffer.from(json)],
      ] as const) {
        const res = await post(body, { 'content-encoding': encoding });
        expect({ encoding, status: res.status, body: await res.json() }).toEqual({ encoding, status: 201, body: { body: { hello: 'wörld' } } });
      }
    });

    it('applies the body limit to the decoded size (a small gzip of a large body is a 413)', async () => {
      const large = JSON.stringify({ filler: 'a'.repeat(BODY_LIMIT * 4) });
      const compressed = gzipSync(large);
      expect(compressed.length).toBeLessThan(BODY_LIMIT);
      const res = await post(compressed, { 'content-encoding': 'gzip' });
      expect(res.status).toBe(413);
    });

    it('answers 400 for a body that does not decode', async () => {
      const res = await post(Buffer.from('definitely not gzip'), { 'content-encoding': 'gzip' });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ message: '400 Bad request - The request body could not be decoded (Content-Encoding: gzip)' });
    });

    it.each(['br', 'compress', 'zstd', 'gzip, gzip', 'made-up'])('answers 415 for the content coding %j', async (encoding) => {
      const res = await post('{}', { 'content-encoding': encoding });
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({ message: '415 Unsupported Media Type' });
    });

    it('answers 415 for JSON in another charset than UTF-8, and takes utf-8 spelled any way', async () => {
      const utf16 = Buffer.from('{"a":"b"}', 'utf16le');
      expect((await post(utf16, { 'content-type': 'application/json; charset=utf-16' })).status).toBe(415);
      expect((await post('{"a":"b"}', { 'content-type': 'application/json; charset=ISO-8859-1' })).status).toBe(415);
      for (const charset of ['utf-8', 'UTF-8', 'utf8', '"utf-8"']) {
        expect((await post('{"a":"b"}', { 'content-type': `application/json; charset=${charset}` })).status).toBe(201);
      }
    });
  });
});
