import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { CONSUMER_GROUPS, DomainEvent, DomainEventConsumerOptions, DomainEventSubscriber } from '@app/messaging';
import { HOOK_DELIVERIES, HookDeliveryJob } from '../hooks.jobs';
import type { JobsOptions, Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { SystemHookEntity } from '../entities/system-hook.entity';
import { HOOK_LOG_RETENTION_DAYS } from './hook-delivery-log';
import { HOOK_BACKOFF_TYPE } from './hook-delivery.processor';
import { HookDeliverer } from './hook-deliverer';
import { chainOf, hookEventOf, subscribes } from './hook-payloads';
import { idempotencyKeyOf } from './hook-signature';
import { MergeRequestHookData } from './merge-request-hook-data';

/** The job id of the delivery of one event to one hook: an event read twice is enqueued once. */
export const deliveryJobId = (eventId: string, hookId: number): string => `${eventId}_${hookId}`;

const ENQUEUE_CHUNK = 1_000;

/** Options of a delivery job: one attempt plus one per retry of the schedule. */
export function deliveryJobOptions(config: AppConfig, jobId: string, attempts = config.hooks.retryScheduleMs.length + 1): JobsOptions {
  return {
    jobId,
    attempts,
    backoff: { type: HOOK_BACKOFF_TYPE },
    // Kept a day (and at most 20,000) so that a redelivered event finds its job and is not sent twice.
    removeOnComplete: { age: 86_400, count: 20_000 },
    // The delivery log is the record of failures; failed jobs are kept as long as the log.
    removeOnFail: { age: HOOK_LOG_RETENTION_DAYS * 86_400 },
  };
}

/**
 * Consumes the domain event stream (consumer group `hook-dispatcher.v1`) and enqueues one
 * `deliver-hook` job per (event, interested hook), in one batch per fetched batch of events.
 * The offsets are committed only after the jobs are in Redis; while Redis is unreachable the
 * batch is retried (the partition waits), so no event is skipped.
 *
 * A hook receives the events that occurred after it was created. Loop protection: an event
 * caused by a hook receiver's request (`hook_chain`) is delivered only while the chain is at
 * most `HOOK_MAX_CHAIN_DEPTH` deliveries long; beyond, the hook's log shows it as skipped.
 */
@Injectable()
export class HookDispatcher extends DomainEventSubscriber {
  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly deliverer: HookDeliverer,
    private readonly mergeRequests: MergeRequestHookData,
    @InjectQueue(HOOK_DELIVERIES.name) private readonly queue: Queue<HookDeliveryJob>,
  ) {
    super();
  }

  protected consumerOptions(): DomainEventConsumerOptions {
    return {
      groupId: CONSUMER_GROUPS.HOOK_DISPATCHER,
      handler: (event) => this.dispatch([event]),
      batchHandler: (events) => this.dispatch(events),
      maxBatchSize: 2_000,
      // Enqueueing fails only when Redis or PostgreSQL does: wait for them, never dead-letter.
      isTransient: () => true,
    };
  }

  /** Enqueues the deliveries of `events` (idempotent: deterministic job ids). */
  async dispatch(events: DomainEvent[]): Promise<void> {
    const candidates = events.map((event) => ({ event, hookEvent: hookEventOf(event) })).filter((c) => c.hookEvent !== null);
    if (candidates.length === 0) return;
    const hooks = await this.dataSource.getRepository(SystemHookEntity).find({ order: { id: 'ASC' } });
    if (hooks.length === 0) return;

    // Merge request payloads are completed from the database, once per batch (only those some hook receives).
    const mergeRequestEvents = candidates.filter(({ hookEvent }) => hookEvent!.trigger === 'merge_request' && hooks.some((hook) => hook.mergeRequestsEvents));
    await this.mergeRequests.enrich(mergeRequestEvents.map(({ event, hookEvent }) => ({ payload: hookEvent!.payload, actor: event.actor })));

    const jobs: Array<{ name: string; data: HookDeliveryJob; opts: JobsOptions }> = [];
    const skipped: Array<Promise<void>> = [];
    for (const { event, hookEvent } of candidates) {
      const occurredAt = Date.parse(event.occurred_at);
      const interested = hooks.filter((hook) => subscribes(hook, hookEvent!.flag) && hook.createdAt.getTime() <= occurredAt);
      if (interested.length === 0) continue;
      const body = JSON.stringify(hookEvent!.payload);
      const chain = chainOf(event);
      const chainDepth = (chain?.depth ?? 0) + 1;
      for (const hook of interested) {
        const data: HookDeliveryJob = {
          eventId: event.id,
          hookId: hook.id,
          trigger: hookEvent!.trigger,
          body,
          idempotencyKey: idempotencyKeyOf(event.id, hook.id),
          occurredAt: event.occurred_at,
          chainId: chain?.id ?? event.id,
          chainDepth,
        };
        if (chainDepth > this.config.hooks.maxChainDepth) {
          skipped.push(
            this.deliverer.skip({ hook, ...data, attempt: 0 }, `loop protection: delivery ${chainDepth} of chain ${data.chainId} exceeds HOOK_MAX_CHAIN_DEPTH (${this.config.hooks.maxChainDepth})`),
          );
          continue;
        }
        jobs.push({ name: HOOK_DELIVERIES.jobs.DELIVER_HOOK, data, opts: deliveryJobOptions(this.config, deliveryJobId(event.id, hook.id)) });
      }
    }
    const chunks: Array<typeof jobs> = [];
    for (let start = 0; start < jobs.length; start += ENQUEUE_CHUNK) chunks.push(jobs.slice(start, start + ENQUEUE_CHUNK));
    await Promise.all(chunks.map((chunk) => this.queue.addBulk(chunk)));
    await Promise.all(skipped);
  }
}
