import type { FastifyInstance } from 'fastify';
import { HealthService } from './health.service';

export const LIVENESS_PATH = '/-/health';
export const READINESS_PATH = '/-/readiness';

/**
 * `GET /-/health` (liveness: 200 `{"status":"ok"}`) and `GET /-/readiness` (200 when every
 * dependency answers, 503 naming the ones that do not). Plain Fastify routes, outside the
 * Nest router on purpose: public, no global prefix (`/api/v4`), no guard, interceptor or
 * exception filter, so that probes keep working whatever the API layer does.
 */
export function registerHealthRoutes(fastify: FastifyInstance, health: HealthService): void {
  const doc = (summary: string) => ({ config: { openapi: { summary, tag: 'Health', security: [] } } });
  fastify.get(LIVENESS_PATH, doc('Liveness: 200 {"status":"ok"} while the process serves'), async (_request, reply) => reply.header('cache-control', 'no-store').send(health.liveness()));
  fastify.get(READINESS_PATH, doc('Readiness: 200 when every dependency answers, 503 naming those that do not'), async (_request, reply) => {
    const report = await health.readiness();
    return reply
      .code(report.status === 'ok' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(report);
  });
}
