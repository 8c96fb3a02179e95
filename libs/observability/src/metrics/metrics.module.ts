import { Global, Inject, Module, OnModuleInit, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { fastifyOf } from '../core/fastify-instance';
import { registerHttpMetrics } from './http-metrics';
import { MetricsService } from './metrics.service';
import { registerMetricsRoute } from './metrics.routes';

/**
 * The process's Prometheus registry (`MetricsService`). In an application served by
 * Fastify it also records `http_request_duration_seconds` for every request and serves
 * `GET /-/metrics`; headless applications expose the same route with
 * `startObservabilityServer`.
 */
@Global()
@Module({ providers: [MetricsService], exports: [MetricsService] })
export class MetricsModule implements OnModuleInit {
  constructor(
    @Inject(MetricsService) private readonly metrics: MetricsService,
    @Optional() @Inject(HttpAdapterHost) private readonly adapterHost?: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    const fastify: FastifyInstance | undefined = fastifyOf(this.adapterHost);
    if (!fastify) return;
    registerHttpMetrics(fastify, this.metrics);
    registerMetricsRoute(fastify, this.metrics);
  }
}
