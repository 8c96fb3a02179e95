import type { RouteInfo } from '@nestjs/common/interfaces';
import { ModuleRef, Reflector } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '@app/config';
import { ApiExceptionFilter } from './api-exception.filter';
import { API_PREFIX } from './api-prefix';
import { ApiResponseInterceptor } from './api-response.interceptor';
import { IfUnmodifiedSinceInterceptor } from './last-modified';
import { createValidationPipe } from './validation/create-validation-pipe';

export interface HttpAppOptions {
  /**
   * Routes served outside `/api/v4` (health, metrics, alert notify endpoints, git smart
   * HTTP): they keep the path of their controller.
   */
  unprefixedRoutes?: Array<string | RouteInfo>;
}

/**
 * Registers the HTTP conventions of spec document 1 on a Nest app built with
 * `createFastifyAdapter(config)`. Call it before `app.init()` / `app.listen()`:
 * - every controller is served under `/api/v4` (other versions match nothing: 404);
 * - the global ValidationPipe with the spec's 400 bodies;
 * - the one exception filter (spec status codes and bodies, 404/405 for unknown routes);
 * - the `/api/v4` response conventions (204 for no result, JSON for strings);
 * - `If-Unmodified-Since` on every DELETE (412 when the resource changed since; see `@LastModified`).
 */
export function configureHttpApp(app: NestFastifyApplication, config: AppConfig, options: HttpAppOptions = {}): NestFastifyApplication {
  app.setGlobalPrefix(API_PREFIX, { exclude: options.unprefixedRoutes ?? [] });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new ApiExceptionFilter(app.getHttpAdapter(), { bodyLimit: config.http.bodyLimit }));
  app.useGlobalInterceptors(new ApiResponseInterceptor(), new IfUnmodifiedSinceInterceptor(app.get(Reflector), app.get(ModuleRef)));
  return app;
}
