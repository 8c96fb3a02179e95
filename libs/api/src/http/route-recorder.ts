import type { FastifyInstance } from 'fastify';
import type { SecurityRequirementObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** What a plain Fastify route (outside the controllers) tells the OpenAPI document about itself, in `config.openapi`. */
export interface PlainRouteDoc {
  summary: string;
  description?: string;
  tag: string;
  /** Security requirements; `[]` for a public route. */
  security: SecurityRequirementObject[];
  /** The route takes a JSON object body. */
  jsonBody?: boolean;
  /** Success status and media type of the answer. */
  success?: { status: number; mediaType: string };
}

/** A route as Fastify registered it: its URL, methods and, for plain routes, what it says about itself. */
export interface RecordedRoute {
  url: string;
  methods: string[];
  doc?: PlainRouteDoc;
}

const recorded = new WeakMap<FastifyInstance, RecordedRoute[]>();

/**
 * Records every route added to `instance` from now on (called by `createFastifyAdapter`,
 * before any route exists): the OpenAPI document lists them all.
 */
export function recordRoutes(instance: FastifyInstance): void {
  const routes: RecordedRoute[] = [];
  recorded.set(instance, routes);
  instance.addHook('onRoute', (options) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    const config = options.config as { openapi?: PlainRouteDoc } | undefined;
    routes.push({ url: options.url, methods: methods.map(String), doc: config?.openapi });
  });
}

/** The routes recorded on `instance` so far (none if it was not built by `createFastifyAdapter`). */
export function recordedRoutes(instance: FastifyInstance): readonly RecordedRoute[] {
  return recorded.get(instance) ?? [];
}
