import { ModulesContainer, NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ReceiveAlertNotificationUseCase, registerAlertNotifyRoutes } from '@app/alerting';
import { assertDeleteRoutesDeclareLastModified, configureHttpApp, createFastifyAdapter, registerOpenApiRoutes } from '@app/api';
import { AppConfig, serviceVersion } from '@app/config';
import { GIT_HTTP_ROUTES } from '@app/repository';
import type { FastifyInstance } from 'fastify';
import { Logger } from 'nestjs-pino';
import { GatewayModule } from './gateway.module';
import { inRequestScope } from './request-scope';
import { registerWebConsole } from './web-console.routes';

/** Controllers served outside /api/v4, as in GitLab. */
const UNPREFIXED_ROUTES = ['oauth/token', 'users/sign_in', 'users/session', 'users/sign_out', ...GIT_HTTP_ROUTES];

/** Creates the gateway application (not yet listening). */
export async function createGateway(config: AppConfig, options: { relay?: boolean } = {}): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.forRoot(config, options), createFastifyAdapter(config), {
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  // Every DELETE says how it honours If-Unmodified-Since (412), or the gateway does not start.
  assertDeleteRoutesDeclareLastModified(app.get(ModulesContainer));
  app.enableShutdownHooks();
  configureHttpApp(app, config, { unprefixedRoutes: UNPREFIXED_ROUTES });
  // The alert notify endpoints carry the alert load: plain Fastify routes, outside the
  // controller pipeline (see `registerAlertNotifyRoutes`), added once the application's
  // hooks, middleware and handlers are registered.
  await app.init();
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  registerAlertNotifyRoutes(fastify, {
    receive: app.get(ReceiveAlertNotificationUseCase),
    inRequestContext: inRequestScope,
  });
  registerOpenApiRoutes(app, fastify, {
    title: 'Service API v4',
    version: serviceVersion().version,
    description:
      'The REST API of this service, wire-compatible with the GitLab REST API v4. Behaviour is specified by the Service API documents; see the project documentation for what they leave open.',
    serverUrl: config.http.externalUrl,
  });
  registerWebConsole(fastify, config.webConsoleDir);
  return app;
}

export async function startGateway(config: AppConfig, options: { relay?: boolean } = {}): Promise<NestFastifyApplication> {
  const app = await createGateway(config, options);
  await app.listen(config.http.port, config.http.host);
  return app;
}
