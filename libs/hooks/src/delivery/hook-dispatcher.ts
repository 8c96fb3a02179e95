import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { CONSUMER_GROUPS, DomainEvent, DomainEventConsumerOptions, DomainEventSubscriber } from '@app/messaging';
import type { JobsOptions, Queue } from 'bullmq';
import { HOOK_DELIVERIES, HookFanOutEvent, HookFanOutJob } from '../core/hooks.jobs';
import { SystemHooksRepository } from '../core/system-hooks.repository';
import { HookDeliverer } from './hook-deliverer';
import { HookEventsRepository } from './hook-events.repository';
import { fanOutJobId, fanOutJobOptions } from './hook-jobs';
import { chainOf, hookEventOf, subscribes } from './hook-payloads';
import { idempotencyKeyOf } from './hook-signature';
import { MergeRequestHookData } from './merge-request-hook-data';

/** Deliveries (events × hooks) per fan-out job: about one job per 100 first attempts, at least one event. */
export const FAN_OUT_DELIVERIES = 100;
const ENQUEUE_CHUNK = 1_000;

/** Groups events into fan-out jobs of about `FAN_OUT_DELIVERIES` deliveries, in order, each with its job id. */
export function fanOutBatches(events: HookFanOutEvent[], deliveries = FAN_OUT_DELIVERIES): Array<{ jobId: string; events: HookFanOutEvent[] }> {
  const batches: Array<{ jobId: string; events: HookFanOutEvent[] }> = [];
  let current: HookFanOutEvent[] = [];
  let size = 0;
  for (const event of events) {
    current.push(event);
    size += event.hookIds.length;
    if (size >= deliveries) {
      batches.push({ jobId: fanOutJobId(current[0].eventId), events: current });
      current = [];
      size = 0;
    }
  }
  if (current.length > 0) batches.push({ jobId: fanOutJobId(current[0].eventId), events: current });
  return batches;
}

/**
 * Consumes the domain event stream (consumer group `hook-dispatcher.v1`), records each event
 * some hook receives in `system_hook_events` (its body, built once, and the hooks subscribed) and
 * enqueues one `fan-out` job per batch of events (about `FAN_OUT_DELIVERIES` deliveries). The
 * offsets are committed only after the events are recorded in PostgreSQL and the jobs are in
 * Redis; while either is unreachable the batch is retried (the partition waits), so no event is
 * skipped. An event read twice is recorded, and enqueued, once. Should Redis lose the jobs, the
 * recovery (`HookDeliveryRecovery`) enqueues them again from the record.
 *
 * A hook receives the events that occurred after it was created. Loop protection: an event
 * caused by a hook receiver's request (`hook_chain`) is delivered only while the chain is at
 * most `HOOK_MAX_CHAIN_DEPTH` deliveries long; beyond, the hook's log shows it as skipped.
 */
@Injectable()
export class HookDispatcher extends DomainEventSubscriber {
  constructor(
    private readonly config: AppConfig,
    private readonly systemHooks: SystemHooksRepository,
    private readonly deliverer: HookDeliverer,
    private readonly mergeRequests: MergeRequestHookData,
    private readonly events: HookEventsRepository,
    @InjectQueue(HOOK_DELIVERIES.name) private readonly queue: Queue,
  ) {
    super();
  }

  protected consumerOptions(): DomainEventConsumerOptions {
    return {
      groupId: CONSUMER_GROUPS.HOOK_DISPATCHER,
      handler: (event) => this.dispatch([event]),
      batchHandler: (events) => this.dispatch(events),
      maxBatchSize: 2_000,
      // Recording and enqueueing fail only when PostgreSQL or Redis does: wait for them, never dead-letter.
      isTransient: () => true,
    };
  }

  /** Records and enqueues the fan-outs of `events` (idempotent: an event recorded before is left alone). */
  async dispatch(events: DomainEvent[]): Promise<void> {
    const candidates = events.map((event) => ({ event, hookEvent: hookEventOf(event) })).filter((c) => c.hookEvent !== null);
    if (candidates.length === 0) return;
    const hooks = await this.systemHooks.list();
    if (hooks.length === 0) return;

    // Merge request payloads are completed from the database, once per batch (only those some hook receives).
    const mergeRequestEvents = candidates.filter(({ hookEvent }) => hookEvent!.trigger === 'merge_request' && hooks.some((hook) => hook.mergeRequestsEvents));
    await this.mergeRequests.enrich(mergeRequestEvents.map(({ event, hookEvent }) => ({ payload: hookEvent!.payload, actor: event.actor })));

    const fanOuts: HookFanOutEvent[] = [];
    const skipped: Array<Promise<void>> = [];
    for (const { event, hookEvent } of candidates) {
      const occurredAt = Date.parse(event.occurred_at);
      const interested = hooks.filter((hook) => subscribes(hook, hookEvent!.flag) && hook.createdAt.getTime() <= occurredAt);
      if (interested.length === 0) continue;
      const body = JSON.stringify(hookEvent!.payload);
      const chain = chainOf(event);
      const chainDepth = (chain?.depth ?? 0) + 1;
      const chainId = chain?.id ?? event.id;
      if (chainDepth > this.config.hooks.maxChainDepth) {
        const reason = `loop protection: delivery ${chainDepth} of chain ${chainId} exceeds HOOK_MAX_CHAIN_DEPTH (${this.config.hooks.maxChainDepth})`;
        for (const hook of interested) {
          skipped.push(
            this.deliverer.skip(
              {
                hook,
                eventId: event.id,
                trigger: hookEvent!.trigger,
                body,
                idempotencyKey: idempotencyKeyOf(event.id, hook.id),
                occurredAt: event.occurred_at,
                chainId,
                chainDepth,
                attempt: 0,
              },
              reason,
            ),
          );
        }
        continue;
      }
      fanOuts.push({
        eventId: event.id,
        trigger: hookEvent!.trigger,
        body,
        occurredAt: event.occurred_at,
        chainId,
        chainDepth,
        hookIds: interested.map((hook) => hook.id),
      });
    }
    const batches = fanOutBatches(fanOuts);
    const recorded = await this.events.insert(batches.flatMap((batch) => batch.events.map((event) => ({ ...event, jobId: batch.jobId }))));
    const jobs: Array<{ name: string; data: HookFanOutJob; opts: JobsOptions }> = [];
    for (const batch of batches) {
      const fresh = batch.events.filter((event) => recorded.has(event.eventId.toLowerCase()));
      if (fresh.length > 0) jobs.push({ name: HOOK_DELIVERIES.jobs.FAN_OUT, data: { events: fresh }, opts: fanOutJobOptions(batch.jobId) });
    }
    for (let start = 0; start < jobs.length; start += ENQUEUE_CHUNK) await this.queue.addBulk(jobs.slice(start, start + ENQUEUE_CHUNK));
    await Promise.all(skipped);
  }
}
