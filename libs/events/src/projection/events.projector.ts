import { Injectable, Logger, Optional } from '@nestjs/common';
import type { DomainEvent } from '@app/messaging';
import {
  CONSUMER_GROUPS,
  DOMAIN_EVENTS_PARTITIONS,
  DomainEventConsumerOptions,
  DomainEventContext,
  DomainEventSubscriber,
  KafkaClient,
  TOPICS,
} from '@app/messaging';
import { MetricsService } from '@app/observability';
import type { Counter, Histogram } from 'prom-client';
import { planProjection } from './event-projection';
import { ProjectionsRepository } from './projections.repository';

/** Most events per projection transaction. */
const PROJECTION_BATCH_SIZE = 2_000;

/** Buckets of the end-to-end delay (seconds), from `occurred_at` to the committed projection. */
const DELAY_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

interface ProjectorMetrics {
  consumed: Counter;
  projected: Counter;
  skipped: Counter<'reason'>;
  delay: Histogram;
}

/**
 * Consumes the domain event stream in group `projector.v1` and materializes contribution
 * events and resource events. Idempotent by event id (see `ProjectionsRepository`); the
 * consumer commits an offset only after the projection committed; a message that is not a
 * valid envelope, or that cannot be projected, goes to the dead-letter topic.
 */
@Injectable()
export class EventsProjector extends DomainEventSubscriber {
  private readonly logger = new Logger(EventsProjector.name);
  private readonly metrics: ProjectorMetrics | null;

  constructor(
    private readonly projections: ProjectionsRepository,
    private readonly kafka: KafkaClient,
    @Optional() metrics?: MetricsService,
  ) {
    super();
    this.metrics = metrics ? this.registerMetrics(metrics) : null;
  }

  protected consumerOptions(): DomainEventConsumerOptions {
    return {
      groupId: CONSUMER_GROUPS.PROJECTOR,
      handler: (event, context) => this.handle(event, context),
      batchHandler: (events) => this.handleBatch(events),
      maxBatchSize: PROJECTION_BATCH_SIZE,
      partitionsConsumedConcurrently: DOMAIN_EVENTS_PARTITIONS,
    };
  }

  /** Projects one event; throwing makes the consumer retry it, then dead-letter it. */
  async handle(event: DomainEvent, _context?: DomainEventContext): Promise<void> {
    this.metrics?.consumed.inc();
    const plan = planProjection(event);
    const outcome = await this.projections.apply(event, plan);
    if (outcome === 'projected') {
      this.metrics?.projected.inc();
      this.metrics?.delay.observe(Math.max(0, (Date.now() - Date.parse(event.occurred_at)) / 1000));
    } else {
      this.metrics?.skipped.inc({ reason: outcome === 'duplicate' ? 'duplicate' : 'not_projected' });
      if (outcome === 'skipped') this.logger.debug(`no projection for ${event.type} ${event.id}`);
    }
  }

  /**
   * Projects the events of one partition's batch in one transaction (multi-row inserts, in
   * stream order). An event that cannot be planned fails the batch: the consumer then handles
   * the batch one by one with `handle`, so only that event is dead-lettered.
   */
  async handleBatch(events: DomainEvent[]): Promise<void> {
    this.metrics?.consumed.inc(events.length);
    const planned = events.map((event) => ({ event, plan: planProjection(event) }));
    const outcomes = await this.projections.applyBatch(planned);
    const now = Date.now();
    let projected = 0;
    for (const { event, outcome } of outcomes) {
      if (outcome === 'projected') {
        projected += 1;
        this.metrics?.delay.observe(Math.max(0, (now - Date.parse(event.occurred_at)) / 1000));
      } else {
        this.metrics?.skipped.inc({ reason: outcome === 'duplicate' ? 'duplicate' : 'not_projected' });
      }
    }
    if (projected > 0) this.metrics?.projected.inc(projected);
  }

  /** Sum over partitions of (end offset - committed offset); -1 on a scrape while Kafka is unreachable. Cached 5 s. */
  private lagCache: { at: number; value: Promise<number> } | null = null;

  private consumerLag(): Promise<number> {
    if (this.lagCache && Date.now() - this.lagCache.at < 5_000) return this.lagCache.value;
    const topic = this.kafka.topic(TOPICS.DOMAIN_EVENTS);
    const value = this.kafka.withAdmin(async (admin) => {
      const [ends, committed] = await Promise.all([
        admin.fetchTopicOffsets(topic),
        admin.fetchOffsets({ groupId: this.kafka.groupId(CONSUMER_GROUPS.PROJECTOR), topics: [topic] }),
      ]);
      const done = new Map((committed[0]?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset)]));
      return ends.reduce((sum, { partition, high, low }) => {
        const at = done.get(partition) ?? -1n;
        const from = at < 0n ? BigInt(low) : at;
        return sum + Number(BigInt(high) > from ? BigInt(high) - from : 0n);
      }, 0);
    });
    this.lagCache = { at: Date.now(), value };
    return value;
  }

  private registerMetrics(metrics: MetricsService): ProjectorMetrics {
    const deadLettered = metrics.gauge('projector_events_dead_lettered', 'Domain events the projector moved to the dead-letter topic since it started');
    Object.assign(deadLettered, { collect: () => deadLettered.set(this.snapshot().deadLettered) });
    const lag = metrics.gauge('projector_consumer_lag', 'Messages of the domain event stream not yet committed by the projector group (sum over partitions)');
    Object.assign(lag, { collect: async () => lag.set(await this.consumerLag().catch(() => -1)) });
    return {
      consumed: metrics.counter('projector_events_consumed_total', 'Valid domain events the projector received (retries included)'),
      projected: metrics.counter('projector_events_projected_total', 'Domain events materialized into events or resource events'),
      skipped: metrics.counter('projector_events_skipped_total', 'Domain events skipped: type without projection, or already projected (duplicate)', [
        'reason',
      ]),
      delay: metrics.histogram('projector_end_to_end_delay_seconds', 'Delay from an event occurring to its projection being committed', [], DELAY_BUCKETS),
    };
  }
}
