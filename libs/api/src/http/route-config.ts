import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import type { PlainRouteDoc } from './route-recorder';

/** What a route may declare about the request bodies it accepts (Fastify route config). */
export interface ApiRouteConfig {
  /** The route accepts `text/plain` bodies (given to the handler as a string). */
  allowTextPlain?: boolean;
  /** Other media types the route accepts (given to the handler as a Buffer); `*` for any. */
  acceptContentTypes?: string[];
  /** `application/json` bodies reach the handler unparsed, as a Buffer (the route checks and parses them). */
  rawJsonBody?: boolean;
  /** The route reads its raw body stream and decodes `Content-Encoding` itself (see `decodeContentEncoding`). */
  ownContentEncoding?: boolean;
  /** `multipart/form-data` bodies are left unread: the handler streams `request.raw` itself (uploads). */
  streamMultipart?: boolean;
  /** What a plain Fastify route (outside the controllers) says about itself in the OpenAPI document. */
  openapi?: PlainRouteDoc;
}

/**
 * Merges `config` into the Fastify route config of a handler. Unlike `@RouteConfig()`, which
 * replaces it, several of these decorators can be stacked on one handler.
 */
function mergeRouteConfig(config: ApiRouteConfig): MethodDecorator {
  return (_target, _key, descriptor) => {
    const handler = descriptor.value as object;
    const existing = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as ApiRouteConfig;
    const merged: ApiRouteConfig = {
      ...existing,
      ...config,
      ...(config.acceptContentTypes && {
        acceptContentTypes: [...(existing.acceptContentTypes ?? []), ...config.acceptContentTypes],
      }),
    };
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, merged, handler);
    return descriptor;
  };
}

/** The endpoint accepts `text/plain` bodies (since 13.10 an endpoint must say so explicitly). */
export const AcceptsTextPlain = (): MethodDecorator => mergeRouteConfig({ allowTextPlain: true });

/** The endpoint accepts bodies of these media types, read into a Buffer (bounded by the body limit). */
export const AcceptsContentTypes = (...mediaTypes: string[]): MethodDecorator =>
  mergeRouteConfig({ acceptContentTypes: mediaTypes.map((type) => type.trim().toLowerCase()) });

/** The route receives `application/json` bodies as a Buffer, unparsed (bounded by the body limit). */
export const RawJsonBody = (): MethodDecorator => mergeRouteConfig({ rawJsonBody: true });

/** The route decodes its request body's `Content-Encoding` itself (it streams the raw body). */
export const OwnContentEncoding = (): MethodDecorator => mergeRouteConfig({ ownContentEncoding: true });
/** The route reads its `multipart/form-data` body itself, as a stream (no body limit applies: the route bounds it). */
export const StreamsMultipart = (): MethodDecorator => mergeRouteConfig({ streamMultipart: true });

/** The route config of a request, as Fastify resolved it. */
export function routeConfigOf(request: { routeOptions?: { config?: unknown } }): ApiRouteConfig {
  return (request.routeOptions?.config ?? {}) as ApiRouteConfig;
}
