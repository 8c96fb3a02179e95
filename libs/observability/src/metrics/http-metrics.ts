import type { FastifyInstance } from 'fastify';
import { MetricsService } from './metrics.service';
import { routeLabel } from './route-label';

export const HTTP_REQUEST_DURATION = 'http_request_duration_seconds';

/** Buckets of the request duration histogram, in seconds: 5 ms to 10 s. */
export const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const instrumented = new WeakSet<FastifyInstance>();

/**
 * Records `http_request_duration_seconds{method, route, status_code}` for every response of
 * `fastify`, `route` being the matched route pattern (`unmatched` for 404s). Call before
 * `fastify.ready()`/`listen()`; calling it again on the same instance does nothing.
 * `MetricsModule` calls it by itself when the Nest application runs on Fastify.
 */
export function registerHttpMetrics(fastify: FastifyInstance, metrics: MetricsService): void {
  if (instrumented.has(fastify)) return;
  instrumented.add(fastify);
  const duration = metrics.histogram(
    HTTP_REQUEST_DURATION,
    'Duration of HTTP requests, by method, route pattern and status code',
    ['method', 'route', 'status_code'],
    HTTP_DURATION_BUCKETS,
  );
  fastify.addHook('onResponse', (request, reply, done) => {
    duration.observe({ method: request.method, route: routeLabel(request), status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });
}
