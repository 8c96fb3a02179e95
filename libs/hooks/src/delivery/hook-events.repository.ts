import { Injectable } from '@nestjs/common';
import type { HookFanOutEvent } from '../core/hooks.jobs';
import { DataSource } from 'typeorm';

/** A pending fan-out as PostgreSQL records it: its job and its events. */
export interface PendingFanOut {
  jobId: string;
  events: HookFanOutEvent[];
}

/** A retry as PostgreSQL records it, with what its job needs. */
export interface PendingRetry {
  eventId: string;
  hookId: number;
  attempt: number;
  dueAt: Date;
  trigger: string;
  body: string;
  occurredAt: string | null;
  chainId: string;
  chainDepth: number;
}

interface EventRow {
  id: string;
  trigger: string;
  body: string;
  occurred_at: Date | null;
  chain_id: string;
  chain_depth: number;
  hook_ids: number[];
  job_id: string;
}

const toFanOutEvent = (row: EventRow): HookFanOutEvent => ({
  eventId: row.id,
  trigger: row.trigger,
  body: row.body,
  occurredAt: row.occurred_at ? row.occurred_at.toISOString() : null,
  chainId: row.chain_id,
  chainDepth: row.chain_depth,
  hookIds: row.hook_ids,
});

/** A resend as PostgreSQL records it, until its attempt has an outcome. */
export interface PendingResend {
  id: string;
  hookId: number;
  deliveryId: string;
  requestId: string | null;
  createdAt: Date;
}

/**
 * The record of the deliveries still owed, in PostgreSQL (Redis only queues them):
 * `system_hook_events` (one row per event: body, subscribed hooks, fan-out done or not),
 * `system_hook_retries` (one row per (event, hook) waiting for a retry) and
 * `system_hook_resends` (one row per resend asked for and not yet attempted).
 */
@Injectable()
export class HookEventsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records events with the fan-out job that carries each (idempotent: an event already recorded
   * is left alone). Returns the ids of the events recorded now, the only ones to enqueue.
   */
  async insert(events: Array<HookFanOutEvent & { jobId: string }>): Promise<Set<string>> {
    if (events.length === 0) return new Set();
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `INSERT INTO system_hook_events (id, trigger, body, occurred_at, chain_id, chain_depth, hook_ids, job_id)
       SELECT id, trigger, body, occurred_at, chain_id, chain_depth, string_to_array(hook_ids, ',')::int[], job_id
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::int[], $7::text[], $8::text[])
           AS t(id, trigger, body, occurred_at, chain_id, chain_depth, hook_ids, job_id)
       ON CONFLICT (id) DO NOTHING
       RETURNING id`,
      [
        events.map((e) => e.eventId),
        events.map((e) => e.trigger),
        events.map((e) => e.body),
        events.map((e) => e.occurredAt),
        events.map((e) => e.chainId),
        events.map((e) => e.chainDepth),
        events.map((e) => e.hookIds.join(',')),
        events.map((e) => e.jobId),
      ],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** Every first attempt of these events has its outcome recorded (log row or retry row). */
  async markFannedOut(eventIds: string[]): Promise<void> {
    if (eventIds.length === 0) return;
    await this.dataSource.query(`UPDATE system_hook_events SET fanned_out_at = now() WHERE id = ANY($1::uuid[]) AND fanned_out_at IS NULL`, [eventIds]);
  }

  /** Of these events, those still owing their fan-out. */
  async stillPending(eventIds: string[]): Promise<Set<string>> {
    if (eventIds.length === 0) return new Set();
    const rows: Array<{ id: string }> = await this.dataSource.query(`SELECT id FROM system_hook_events WHERE id = ANY($1::uuid[]) AND fanned_out_at IS NULL`, [
      eventIds,
    ]);
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Fan-outs recorded before `before` and not done, by job, oldest first, one page after
   * `after` (created_at, id).
   */
  async pendingFanOuts(
    before: Date,
    after: { createdAt: Date; id: string } | null,
    limit: number,
  ): Promise<{ fanOuts: PendingFanOut[]; last: { createdAt: Date; id: string } | null }> {
    const rows: Array<EventRow & { created_at: Date }> = await this.dataSource.query(
      `SELECT id, trigger, body, occurred_at, chain_id, chain_depth, hook_ids, job_id, created_at FROM system_hook_events
        WHERE fanned_out_at IS NULL AND created_at < $1 AND ($2::timestamptz IS NULL OR (created_at, id) > ($2, $3::uuid))
        ORDER BY created_at, id LIMIT $4`,
      [before, after?.createdAt ?? null, after?.id ?? null, limit],
    );
    const byJob = new Map<string, HookFanOutEvent[]>();
    for (const row of rows) {
      const events = byJob.get(row.job_id) ?? [];
      events.push(toFanOutEvent(row));
      byJob.set(row.job_id, events);
    }
    const lastRow = rows.at(-1);
    return {
      fanOuts: [...byJob].map(([jobId, events]) => ({ jobId, events })),
      last: rows.length < limit || !lastRow ? null : { createdAt: lastRow.created_at, id: lastRow.id },
    };
  }

  /** The (event, hook) pairs of these events whose first attempt already has an outcome: a success, a skip or a retry waiting. */
  async handled(eventIds: string[], since: Date): Promise<Set<string>> {
    if (eventIds.length === 0) return new Set();
    const rows: Array<{ event_id: string; hook_id: number }> = await this.dataSource.query(
      `SELECT event_id, hook_id FROM system_hook_deliveries WHERE created_at >= $2 AND event_id = ANY($1::uuid[]) AND status IN ('successful', 'skipped')
       UNION SELECT event_id, hook_id FROM system_hook_retries WHERE event_id = ANY($1::uuid[])`,
      [eventIds, since],
    );
    return new Set(rows.map((r) => `${r.event_id}_${r.hook_id}`));
  }

  /** Records (or moves) the next attempts of deliveries whose attempt failed or was handed over. */
  async scheduleRetries(retries: Array<{ eventId: string; hookId: number; attempt: number; dueAt: Date }>): Promise<void> {
    if (retries.length === 0) return;
    await this.dataSource.query(
      `INSERT INTO system_hook_retries (event_id, hook_id, attempt, due_at)
       SELECT * FROM unnest($1::uuid[], $2::int[], $3::int[], $4::timestamptz[])
       ON CONFLICT (event_id, hook_id) DO UPDATE SET attempt = excluded.attempt, due_at = excluded.due_at`,
      [retries.map((r) => r.eventId), retries.map((r) => r.hookId), retries.map((r) => r.attempt), retries.map((r) => r.dueAt)],
    );
  }

  /** The delivery has its final outcome (success, refusal, last attempt failed, hook gone). */
  async finishRetry(eventId: string, hookId: number): Promise<void> {
    await this.dataSource.query(`DELETE FROM system_hook_retries WHERE event_id = $1 AND hook_id = $2`, [eventId, hookId]);
  }

  /** Whether the retry of (event, hook) is still recorded (false: finished, e.g. by a job run twice). */
  async retryPending(eventId: string, hookId: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM system_hook_retries WHERE event_id = $1 AND hook_id = $2`, [eventId, hookId]);
    return rows.length > 0;
  }

  /** Retries due before `before`, oldest first, one page after `after` (due_at, event id, hook id). */
  async dueRetries(before: Date, after: { dueAt: Date; eventId: string; hookId: number } | null, limit: number): Promise<PendingRetry[]> {
    const rows: Array<{
      event_id: string;
      hook_id: number;
      attempt: number;
      due_at: Date;
      trigger: string;
      body: string;
      occurred_at: Date | null;
      chain_id: string;
      chain_depth: number;
    }> = await this.dataSource.query(
      `SELECT r.event_id, r.hook_id, r.attempt, r.due_at, e.trigger, e.body, e.occurred_at, e.chain_id, e.chain_depth
           FROM system_hook_retries r JOIN system_hook_events e ON e.id = r.event_id
          WHERE r.due_at < $1 AND ($2::timestamptz IS NULL OR (r.due_at, r.event_id, r.hook_id) > ($2, $3::uuid, $4::int))
          ORDER BY r.due_at, r.event_id, r.hook_id LIMIT $5`,
      [before, after?.dueAt ?? null, after?.eventId ?? null, after?.hookId ?? null, limit],
    );
    return rows.map((r) => ({
      eventId: r.event_id,
      hookId: r.hook_id,
      attempt: r.attempt,
      dueAt: r.due_at,
      trigger: r.trigger,
      body: r.body,
      occurredAt: r.occurred_at ? r.occurred_at.toISOString() : null,
      chainId: r.chain_id,
      chainDepth: r.chain_depth,
    }));
  }

  /** Of these retries, those still recorded at this attempt. */
  async stillDue(retries: Array<{ eventId: string; hookId: number; attempt: number }>): Promise<Set<string>> {
    if (retries.length === 0) return new Set();
    const rows: Array<{ event_id: string; hook_id: number }> = await this.dataSource.query(
      `SELECT r.event_id, r.hook_id FROM system_hook_retries r JOIN unnest($1::uuid[], $2::int[], $3::int[]) AS t(event_id, hook_id, attempt)
          ON r.event_id = t.event_id AND r.hook_id = t.hook_id AND r.attempt = t.attempt`,
      [retries.map((r) => r.eventId), retries.map((r) => r.hookId), retries.map((r) => r.attempt)],
    );
    return new Set(rows.map((r) => `${r.event_id}_${r.hook_id}`));
  }

  /** Removes the events older than `cutoff` (with the delivery log), in slices. Returns how many. */
  async prune(cutoff: Date): Promise<number> {
    let removed = 0;
    for (;;) {
      const result: [unknown[], number] = await this.dataSource.query(
        `DELETE FROM system_hook_events WHERE id IN (SELECT id FROM system_hook_events WHERE created_at < $1 AND fanned_out_at IS NOT NULL LIMIT 10000)
           AND NOT EXISTS (SELECT 1 FROM system_hook_retries r WHERE r.event_id = system_hook_events.id)`,
        [cutoff],
      );
      const count = Array.isArray(result) ? Number(result[1] ?? 0) : 0;
      removed += count;
      if (count < 10_000) return removed;
    }
  }

  /** Records a resend before its job is enqueued. */
  async recordResend(resend: { id: string; hookId: number; deliveryId: string; requestId: string | null }): Promise<void> {
    await this.dataSource.query(`INSERT INTO system_hook_resends (id, hook_id, delivery_id, request_id) VALUES ($1, $2, $3, $4)`, [
      resend.id,
      resend.hookId,
      resend.deliveryId,
      resend.requestId,
    ]);
  }

  /** The resend's attempt has its outcome (or can no longer be made). */
  async finishResend(id: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM system_hook_resends WHERE id = $1`, [id]);
  }

  /** Resends recorded before `before`, oldest first, one page after `after` (created_at, id). */
  async pendingResends(before: Date, after: { createdAt: Date; id: string } | null, limit: number): Promise<PendingResend[]> {
    const rows: Array<{ id: string; hook_id: number; delivery_id: string; request_id: string | null; created_at: Date }> = await this.dataSource.query(
      `SELECT id, hook_id, delivery_id::text AS delivery_id, request_id, created_at FROM system_hook_resends
        WHERE created_at < $1 AND ($2::timestamptz IS NULL OR (created_at, id) > ($2::timestamptz, $3::uuid))
        ORDER BY created_at, id LIMIT $4`,
      [before, after?.createdAt ?? null, after?.id ?? null, limit],
    );
    return rows.map((r) => ({ id: r.id, hookId: r.hook_id, deliveryId: r.delivery_id, requestId: r.request_id, createdAt: r.created_at }));
  }

  /** Of these resends, those still recorded. */
  async stillResending(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows: Array<{ id: string }> = await this.dataSource.query(`SELECT id FROM system_hook_resends WHERE id = ANY($1::uuid[])`, [ids]);
    return new Set(rows.map((r) => r.id));
  }
}
