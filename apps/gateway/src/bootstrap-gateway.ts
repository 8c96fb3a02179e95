import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ALERT_NOTIFY_ROUTES } from '@app/alerting/notify-url';
import { configureHttpApp, createFastifyAdapter } from '@app/api';
import { AppConfig } from '@app/config';
import { GIT_HTTP_ROUTES } from '@app/repository/git-http/git-http-routes';
import { Logger } from 'nestjs-pino';
import { GatewayModule } from './gateway.module';

/** Controllers served outside /api/v4, as in GitLab. */
const UNPREFIXED_ROUTES = ['oauth/token', 'users/sign_in', 'users/sign_out', ...ALERT_NOTIFY_ROUTES, ...GIT_HTTP_ROUTES];

/** Creates the gateway application (not yet listening). */
export async function createGateway(config: AppConfig, options: { relay?: boolean } = {}): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.forRoot(config, options), createFastifyAdapter(config), {
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  configureHttpApp(app, config, { unprefixedRoutes: UNPREFIXED_ROUTES });
  return app;
}

export async function startGateway(config: AppConfig, options: { relay?: boolean } = {}): Promise<NestFastifyApplication> {
  const app = await createGateway(config, options);
  await app.listen(config.http.port, config.http.host);
  return app;
}
