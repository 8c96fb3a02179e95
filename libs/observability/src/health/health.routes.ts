import type { FastifyInstance } from 'fastify';
import { HealthService } from './health.service';

export const LIVENESS_PATH = '/-/health';
export const READINESS_PATH = '/-/readiness';

/**
 * `GET /-/health` (liveness: always 200, `{"status":"ok"}`, or `{"status":"degraded","checks":{"kafka":…}}`
 * while Kafka is away) and `GET /-/readiness` (200 `ok` when every dependency answers, 200
 * `degraded` when only Kafka does not, 503 `failed` naming PostgreSQL, the migrations or Redis
 * when one of them does not). Plain Fastify routes, outside the
 * Nest router on purpose: public, no global prefix (`/api/v4`), no guard, interceptor or
 * exception filter, so that probes keep working whatever the API layer does.
 */
export function registerHealthRoutes(fastify: FastifyInstance, health: HealthService): void {
  const doc = (summary: string) => ({ config: { openapi: { summary, tag: 'Health', security: [] } } });
  fastify.get(
    LIVENESS_PATH,
    doc('Liveness: 200 while the process serves; {"status":"ok"}, or "degraded" naming Kafka while it is away'),
    async (_request, reply) => reply.header('cache-control', 'no-store').send(health.liveness()),
  );
  fastify.get(
    READINESS_PATH,
    doc('Readiness: 200 (ok, or degraded while only Kafka is away), 503 naming PostgreSQL, the migrations or Redis when one does not answer'),
    async (_request, reply) => {
      const report = await health.readiness();
      return reply
        .code(report.status === 'failed' ? 503 : 200)
        .header('cache-control', 'no-store')
        .send(report);
    },
  );
}
