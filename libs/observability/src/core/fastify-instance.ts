import type { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';

/** The Fastify instance of a Nest HTTP application; undefined for application contexts and other adapters. */
export function fastifyOf(adapterHost: HttpAdapterHost | undefined): FastifyInstance | undefined {
  const adapter = adapterHost?.httpAdapter;
  if (!adapter || adapter.getType() !== 'fastify') return undefined;
  return adapter.getInstance<FastifyInstance>();
}
