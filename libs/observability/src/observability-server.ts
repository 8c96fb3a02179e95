import type { INestApplicationContext } from '@nestjs/common';
import { fastify, FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { registerHealthRoutes } from './health/health.routes';
import { HealthService } from './health/health.service';
import { registerMetricsRoute } from './metrics/metrics.routes';
import { MetricsService } from './metrics/metrics.service';

export interface ObservabilityServer {
  /** `http://host:port` the server listens on. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A small HTTP server for headless applications (alert-engine, projector), which have no
 * HTTP surface of their own: `GET /-/health`, `GET /-/readiness` (when `HealthModule` is
 * imported) and `GET /-/metrics` (when `MetricsModule` is). `port: 0` picks a free port.
 *
 *   const app = await NestFactory.createApplicationContext(ProjectorModule, { bufferLogs: true });
 *   app.useLogger(app.get(Logger));
 *   const server = await startObservabilityServer(app, { host: '0.0.0.0', port: 9464 });
 *   // on shutdown: await server.close(); await app.close();
 */
export async function startObservabilityServer(
  app: INestApplicationContext,
  { host = '127.0.0.1', port }: { host?: string; port: number },
): Promise<ObservabilityServer> {
  const server: FastifyInstance = fastify({ logger: false });
  const health = optional(app, HealthService);
  const metrics = optional(app, MetricsService);
  if (!health && !metrics) throw new Error('startObservabilityServer: import HealthModule and/or MetricsModule');
  if (health) registerHealthRoutes(server, health);
  if (metrics) registerMetricsRoute(server, metrics);
  await server.listen({ host, port });
  const address = server.server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { url: `http://${shownHost}:${address.port}`, close: () => server.close() };
}

function optional<T>(app: INestApplicationContext, token: new (...args: never[]) => T): T | undefined {
  try {
    return app.get(token, { strict: false });
  } catch {
    return undefined;
  }
}
