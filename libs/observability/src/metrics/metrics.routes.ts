import type { FastifyInstance } from 'fastify';
import { MetricsService } from './metrics.service';

export const METRICS_PATH = '/-/metrics';

/**
 * `GET /-/metrics`: the Prometheus text exposition. A plain Fastify route, outside the Nest
 * router on purpose: no global prefix (`/api/v4`), guard, interceptor or exception filter
 * applies to it.
 */
export function registerMetricsRoute(fastify: FastifyInstance, metrics: MetricsService): void {
  const openapi = { summary: 'Prometheus metrics (text exposition format)', tag: 'Health', security: [], success: { status: 200, mediaType: 'text/plain' } };
  fastify.get(METRICS_PATH, { config: { openapi } }, async (_request, reply) => {
    const { contentType, body } = await metrics.exposition();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  });
}
