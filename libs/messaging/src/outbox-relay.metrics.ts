import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { MetricsService } from '@app/observability';
import { OutboxRelay } from './outbox.relay';

/** Exposes the relay on /-/metrics: events published, events waiting, and whether it is failing. */
@Injectable()
export class OutboxRelayMetrics implements OnModuleInit {
  constructor(
    private readonly relay: OutboxRelay,
    @Optional() private readonly metrics?: MetricsService,
  ) {}

  onModuleInit(): void {
    if (!this.metrics) return;
    // One snapshot (one count query) serves the three gauges of a scrape.
    let cached: { at: number; value: ReturnType<OutboxRelay['snapshot']> } | null = null;
    const snapshot = () => {
      if (!cached || Date.now() - cached.at > 1000) cached = { at: Date.now(), value: this.relay.snapshot() };
      return cached.value;
    };
    const published = this.metrics.gauge('outbox_published_events', 'Domain events this process published to Kafka since it started');
    const pending = this.metrics.gauge('outbox_pending_events', 'Domain events written to the outbox and not yet published');
    const failing = this.metrics.gauge('outbox_relay_failing', '1 while the relay cannot publish (Kafka unreachable)');
    // Read at scrape time, so the figures are never stale.
    Object.assign(published, { collect: async () => published.set((await snapshot()).publishedTotal) });
    Object.assign(pending, { collect: async () => pending.set((await snapshot()).pending ?? 0) });
    Object.assign(failing, { collect: async () => failing.set((await snapshot()).failing ? 1 : 0) });
  }
}
