import { Injectable, Optional } from '@nestjs/common';
import { MetricsService } from '@app/observability';
import type { Counter, Histogram } from 'prom-client';
import type { HookDeliveryStatus } from '../entities/hook-delivery.entity';

/** Delivery metrics on /-/metrics (no-ops in a process without a metrics registry). */
@Injectable()
export class HookMetrics {
  private readonly deliveries?: Counter<'outcome'>;
  private readonly latency?: Histogram<'outcome'>;
  private readonly delay?: Histogram;

  constructor(@Optional() readonly registry?: MetricsService) {
    if (!registry) return;
    this.deliveries = registry.counter(
      'system_hook_deliveries_total',
      'System hook delivery attempts by outcome (successful, client_failure, server_failure, skipped)',
      ['outcome'],
    );
    this.latency = registry.histogram(
      'system_hook_delivery_duration_seconds',
      'Duration of system hook delivery attempts (request sent to response read)',
      ['outcome'],
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    );
    this.delay = registry.histogram(
      'system_hook_delivery_delay_seconds',
      'Time from the event commit to its successful delivery',
      [],
      [0.01, 0.05, 0.1, 0.25, 0.5, 1, 5, 30, 300, 3600],
    );
  }

  attempt(outcome: HookDeliveryStatus, durationMs: number): void {
    this.deliveries?.inc({ outcome });
    if (outcome !== 'skipped') this.latency?.observe({ outcome }, durationMs / 1000);
  }

  delivered(occurredAt: string | null): void {
    if (occurredAt) this.delay?.observe(Math.max(0, Date.now() - Date.parse(occurredAt)) / 1000);
  }
}
