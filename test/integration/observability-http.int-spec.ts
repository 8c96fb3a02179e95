import 'reflect-metadata';
import { Body, Controller, Get, Logger as NestLogger, Module, Param, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig, ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { HealthModule, LoggingModule, MetricsModule, REDACTED } from '@app/observability';
import { RedisModule } from '@app/queue';
import { createTestDatabase, eventually } from '@app/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { Logger } from 'nestjs-pino';
import { ENTITIES } from '../../apps/entities';

/** Collects the JSON lines pino writes. */
class LineCollector {
  readonly raw: string[] = [];
  write(chunk: string): void {
    this.raw.push(...chunk.split('\n').filter((line) => line.length > 0));
  }
  get records(): Array<Record<string, unknown>> {
    return this.raw.map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

@Controller('projects')
class ProjectsTestController {
  private readonly logger = new NestLogger(ProjectsTestController.name);

  @Get(':id')
  show(@Param('id') id: string): { id: number } {
    this.logger.log({ msg: 'showing project', body: { name: 'demo', password: 'hunter2', api_key: 'k-123', hook: { token: 't-456' } } });
    return { id: Number(id) };
  }

  /** A request with a body: the body is read in the socket's context, the line must still carry the request id. */
  @Post(':id/notes')
  async note(@Param('id') id: string, @Body() body: { text: string }): Promise<{ id: number }> {
    await new Promise((resolve) => setTimeout(resolve, 5));
    this.logger.log({ msg: 'adding note', text: body.text });
    return { id: Number(id) };
  }
}

/** Served outside the global prefix, like the alert notify endpoints. */
@Controller('notify')
class NotifyTestController {
  private readonly logger = new NestLogger(NotifyTestController.name);

  @Get(':id')
  notify(@Param('id') id: string): { notified: string } {
    this.logger.log('notified');
    return { notified: id };
  }
}

describe('observability over HTTP (logging, request id, metrics)', () => {
  const lines = new LineCollector();
  let db: { url: string; drop: () => Promise<void> };
  let app: NestFastifyApplication;
  let baseUrl: string;

  beforeAll(async () => {
    db = await createTestDatabase('observability_http');
    const config = AppConfig.fromEnvironment({
      DATABASE_URL: db.url,
      REDIS_PREFIX: `obs-http-${randomBytes(4).toString('hex')}`,
      KAFKA_TOPIC_PREFIX: `obs-http-${randomBytes(4).toString('hex')}`,
      LOG_LEVEL: 'info',
    });

    @Module({
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(ENTITIES),
        RedisModule,
        LoggingModule.forRoot({ destination: lines }),
        MetricsModule,
        HealthModule,
      ],
      controllers: [ProjectsTestController, NotifyTestController],
    })
    class TestModule {}

    app = await NestFactory.create<NestFastifyApplication>(TestModule, new FastifyAdapter({ requestIdHeader: 'x-request-id', genReqId: () => randomUUID() }), {
      bufferLogs: true,
    });
    app.useLogger(app.get(Logger));
    // As the gateway does: the API under /api/v4, a few routes outside it.
    app.setGlobalPrefix('api/v4', { exclude: ['notify/:id'] });
    await app.listen(0, '127.0.0.1');
    baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('echoes the X-Request-Id the client sent', async () => {
    const id = `client-${randomUUID()}`;
    const res = await fetch(`${baseUrl}/api/v4/projects/7`, { headers: { 'X-Request-Id': id } });
    expect(res.status).toBe(200);
    await expect(res.json()).resolves.toEqual({ id: 7 });
    expect(res.headers.get('x-request-id')).toBe(id);
  });

  it('generates a UUID request id when the client sent none, on unmatched routes too', async () => {
    const found = await fetch(`${baseUrl}/api/v4/projects/8`);
    const missing = await fetch(`${baseUrl}/nowhere/${randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(found.headers.get('x-request-id')).toMatch(UUID);
    expect(missing.headers.get('x-request-id')).toMatch(UUID);
    expect(missing.headers.get('x-request-id')).not.toBe(found.headers.get('x-request-id'));
  });

  it('writes one JSON access line per request with the request id, method, route pattern, status and duration', async () => {
    const id = randomUUID();
    await fetch(`${baseUrl}/api/v4/projects/42?per_page=5`, { headers: { 'X-Request-Id': id } });
    const access = await eventually(() => {
      const found = lines.records.filter((r) => r.reqId === id && r.msg === 'request completed');
      return found.length ? found : undefined;
    }, 'the access line');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({
      level: 'info',
      method: 'GET',
      route: '/api/v4/projects/:id',
      url: '/api/v4/projects/42?per_page=5',
      statusCode: 200,
    });
    expect(typeof access[0].durationMs).toBe('number');
    expect(typeof access[0].time).toBe('string');
  });

  it('carries the request id into the lines logged while handling the request, under the global prefix and outside it', async () => {
    const id = randomUUID();
    await fetch(`${baseUrl}/api/v4/projects/43`, { headers: { 'X-Request-Id': id } });
    const line = await eventually(() => lines.records.find((r) => r.reqId === id && r.msg === 'showing project'), 'the handler line');
    expect(line).toMatchObject({ level: 'info', context: ProjectsTestController.name });

    const outside = randomUUID();
    await expect(fetch(`${baseUrl}/notify/9`, { headers: { 'X-Request-Id': outside } }).then((r) => r.json())).resolves.toEqual({ notified: '9' });
    await eventually(() => lines.records.find((r) => r.reqId === outside && r.msg === 'notified'), 'the line outside the prefix');

    const posted = randomUUID();
    const res = await fetch(`${baseUrl}/api/v4/projects/45/notes`, {
      method: 'POST',
      headers: { 'X-Request-Id': posted, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'x'.repeat(200_000) }),
    });
    expect(res.status).toBe(201);
    await eventually(() => lines.records.find((r) => r.reqId === posted && r.msg === 'adding note'), 'the line of a request with a body');
    // Lines outside any request carry no request id.
    new NestLogger('Background').log('between requests');
    const background = await eventually(() => lines.records.find((r) => r.msg === 'between requests'), 'the background line');
    expect(background.reqId).toBeUndefined();
  });

  it('never writes credentials: headers, query parameters and secret body fields are redacted', async () => {
    const id = randomUUID();
    await fetch(`${baseUrl}/api/v4/projects/44?private_token=glpat-query-secret&page=2`, {
      headers: { 'X-Request-Id': id, Authorization: 'Bearer header-secret', 'Private-Token': 'glpat-header-secret' },
    });
    const access = await eventually(() => lines.records.find((r) => r.reqId === id && r.msg === 'request completed'), 'the access line');
    const handled = await eventually(() => lines.records.find((r) => r.reqId === id && r.msg === 'showing project'), 'the handler line');
    expect(access.url).toBe(`/api/v4/projects/44?private_token=${REDACTED}&page=2`);
    expect(handled.body).toEqual({ name: 'demo', password: REDACTED, api_key: REDACTED, hook: { token: REDACTED } });
    const output = lines.raw.join('\n');
    for (const secret of ['glpat-query-secret', 'header-secret', 'hunter2', 'k-123', 't-456']) {
      expect(output).not.toContain(secret);
    }
  });

  it('records request durations by route pattern and serves them with the process metrics on /-/metrics', async () => {
    await fetch(`${baseUrl}/api/v4/projects/101`);
    await fetch(`${baseUrl}/api/v4/projects/102`);
    await fetch(`${baseUrl}/does-not-exist/103`);
    const count = (body: string, labels: string): number => {
      const match = body.match(new RegExp(`^http_request_duration_seconds_count\\{${labels}\\} (\\d+)$`, 'm'));
      return match ? Number(match[1]) : 0;
    };
    const projectRoute = 'method="GET",route="/api/v4/projects/:id",status_code="200"';
    const unmatched = 'method="GET",route="unmatched",status_code="404"';
    // Durations are recorded when a response is done: poll until the three are counted.
    const { res: metrics, body } = await eventually(async () => {
      const res = await fetch(`${baseUrl}/-/metrics`);
      const text = await res.text();
      return count(text, projectRoute) >= 2 && count(text, unmatched) >= 1 ? { res, body: text } : undefined;
    }, 'the three durations');
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4; charset=utf-8/);
    expect(body).toContain('# TYPE http_request_duration_seconds histogram');
    expect(body).toMatch(/^http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/v4\/projects\/:id",status_code="200"\} \d+$/m);
    expect(body).not.toMatch(/route="\/api\/v4\/projects\/\d+"/);
    expect(body).not.toContain('does-not-exist');
    expect(body).toContain('process_cpu_user_seconds_total');
    expect(body).toContain('nodejs_eventloop_lag_seconds');
  });

  it('serves liveness and metrics outside /api/v4, without authentication', async () => {
    const health = await fetch(`${baseUrl}/-/health`);
    expect(health.status).toBe(200);
    await expect(health.json()).resolves.toEqual({ status: 'ok' });
    expect((await fetch(`${baseUrl}/api/v4/-/health`)).status).toBe(404);
  });
});
