import { Injectable } from '@nestjs/common';
import type { DomainEvent } from '@app/messaging';
import { DataSource, EntityManager } from 'typeorm';
import {
  ContributionEventRow,
  EventRemoval,
  IterationEventRow,
  MilestoneEventRow,
  NoteUpdate,
  ProjectionPlan,
  StateEventRow,
  WeightEventRow,
} from './event-projection';

/** The tables the projector owns; a rebuild truncates exactly these. */
export const PROJECTION_TABLES = [
  'events',
  'project_event_positions',
  'resource_milestone_events',
  'resource_state_events',
  'resource_iteration_events',
  'resource_weight_events',
  'projected_events',
] as const;

export type ProjectionOutcome = 'projected' | 'skipped' | 'duplicate';

/**
 * A batch in one statement: $1 the claims `[{event_id, type}]`; $2..$6 the rows of `events` and
 * of the milestone, state, iteration and weight resource events, each with its `event_id`,
 * `user_id`, `created_at` and `ord` (its position in the batch: ids are assigned in that order).
 * Rows are inserted only for the event ids this statement claimed; returns those ids. The
 * contribution events of a project are numbered on (`project_seq`, see `ProjectEventPositionEntity`).
 */
const APPLY_BATCH_SQL = `
WITH claimed AS (
  INSERT INTO projected_events (event_id, type)
  SELECT r.event_id, r.type FROM jsonb_to_recordset($1::jsonb) AS r(event_id uuid, type varchar)
  ON CONFLICT (event_id) DO NOTHING RETURNING event_id
), contribution_rows AS (
  SELECT r.*
  FROM jsonb_to_recordset($2::jsonb) AS r(event_id uuid, ord int, sub int, project_id int, group_id int, author_id int, action varchar, target_type varchar,
    target_id int, target_iid int, target_title varchar, note jsonb, push_data jsonb, created_at timestamptz)
  JOIN claimed c ON c.event_id = r.event_id
), positions AS (
  -- Locks each project's row (in project order: no deadlock) until COMMIT, so that the
  -- numbers and the ids of a project's events are drawn in the same order.
  INSERT INTO project_event_positions AS p (project_id, last_seq)
  SELECT project_id, count(*) FROM contribution_rows WHERE project_id IS NOT NULL GROUP BY project_id ORDER BY project_id
  ON CONFLICT (project_id) DO UPDATE SET last_seq = p.last_seq + EXCLUDED.last_seq
  RETURNING p.project_id, p.last_seq
), contribution AS (
  INSERT INTO events (source_event_id, project_id, project_seq, group_id, author_id, action, target_type, target_id, target_iid, target_title, note, push_data, created_at)
  SELECT r.event_id, r.project_id,
    CASE WHEN r.project_id IS NOT NULL THEN pos.last_seq - count(*) OVER (PARTITION BY r.project_id) + row_number() OVER (PARTITION BY r.project_id ORDER BY r.ord, r.sub) END,
    r.group_id, r.author_id, r.action, r.target_type, r.target_id, r.target_iid, r.target_title, r.note, r.push_data, r.created_at
  FROM contribution_rows r LEFT JOIN positions pos ON pos.project_id = r.project_id
  ORDER BY r.ord, r.sub
  RETURNING 1
), milestone AS (
  INSERT INTO resource_milestone_events (source_event_id, user_id, issue_id, merge_request_id, milestone_id, milestone_snapshot, action, created_at)
  SELECT r.event_id, r.user_id, r.issue_id, r.merge_request_id, r.milestone_id, r.milestone_snapshot, r.action, r.created_at
  FROM jsonb_to_recordset($3::jsonb) AS r(event_id uuid, ord int, user_id int, issue_id int, merge_request_id int, milestone_id int, milestone_snapshot jsonb,
    action varchar, created_at timestamptz)
  JOIN claimed c ON c.event_id = r.event_id ORDER BY r.ord
  RETURNING 1
), state AS (
  INSERT INTO resource_state_events (source_event_id, user_id, issue_id, merge_request_id, state, source_commit, source_merge_request_id, created_at)
  SELECT r.event_id, r.user_id, r.issue_id, r.merge_request_id, r.state, r.source_commit, r.source_merge_request_id, r.created_at
  FROM jsonb_to_recordset($4::jsonb) AS r(event_id uuid, ord int, user_id int, issue_id int, merge_request_id int, state varchar, source_commit varchar,
    source_merge_request_id int, created_at timestamptz)
  JOIN claimed c ON c.event_id = r.event_id ORDER BY r.ord
  RETURNING 1
), iteration AS (
  INSERT INTO resource_iteration_events (source_event_id, user_id, issue_id, iteration_id, iteration_snapshot, action, created_at)
  SELECT r.event_id, r.user_id, r.issue_id, r.iteration_id, r.iteration_snapshot, r.action, r.created_at
  FROM jsonb_to_recordset($5::jsonb) AS r(event_id uuid, ord int, user_id int, issue_id int, iteration_id int, iteration_snapshot jsonb, action varchar, created_at timestamptz)
  JOIN claimed c ON c.event_id = r.event_id ORDER BY r.ord
  RETURNING 1
), weight AS (
  INSERT INTO resource_weight_events (source_event_id, user_id, issue_id, weight, created_at)
  SELECT r.event_id, r.user_id, r.issue_id, r.weight, r.created_at
  FROM jsonb_to_recordset($6::jsonb) AS r(event_id uuid, ord int, user_id int, issue_id int, weight int, created_at timestamptz)
  JOIN claimed c ON c.event_id = r.event_id ORDER BY r.ord
  RETURNING 1
)
SELECT event_id FROM claimed`;

/**
 * Removes contribution events ($1: `{target_type, target_id}` or `{noteable_type, noteable_id,
 * project_id}` for the comments on a noteable) and raises each project's `deleted_max_seq` to
 * the highest number removed, as the retention job does, so that every number above it still
 * exists (the position paging of project lists stays exact; below it, pages are skipped).
 */
const REMOVE_EVENTS_SQL = `
WITH removed AS (
  DELETE FROM events e USING jsonb_to_recordset($1::jsonb) AS r(target_type varchar, target_id int, noteable_type varchar, noteable_id int, project_id int)
  WHERE (r.target_type IS NOT NULL AND e.target_type = r.target_type AND e.target_id = r.target_id)
     OR (r.noteable_type IS NOT NULL AND e.project_id = r.project_id AND e.target_type = 'Note'
         AND e.note->>'noteable_type' = r.noteable_type AND e.note->>'noteable_id' = r.noteable_id::text)
  RETURNING e.project_id, e.project_seq
), raised AS (
  UPDATE project_event_positions p SET deleted_max_seq = GREATEST(p.deleted_max_seq, r.max_seq)
  FROM (SELECT project_id, max(project_seq) AS max_seq FROM removed WHERE project_id IS NOT NULL GROUP BY project_id) r
  WHERE p.project_id = r.project_id
)
SELECT count(*)::int AS count FROM removed`;

const removalRow = (r: EventRemoval) =>
  'commentsOn' in r
    ? { noteable_type: r.commentsOn.type, noteable_id: r.commentsOn.id, project_id: r.commentsOn.projectId }
    : { target_type: r.targetType, target_id: r.targetId };

/** What a plan changes in rows projected before it (removals, edited comments), applied after the inserts. */
interface FollowUp {
  eventId: string;
  removals: EventRemoval[];
  noteUpdates: NoteUpdate[];
}

/** One event of a batch and its plan (null: a type without projections, only remembered). */
export interface PlannedEvent {
  event: DomainEvent;
  plan: ProjectionPlan | null;
}

/** What happened to each event of a batch, in the order given (a repeated id is a duplicate). */
export interface BatchOutcome {
  event: DomainEvent;
  outcome: ProjectionOutcome;
}

const eventRow = (e: ContributionEventRow) => ({
  project_id: e.projectId,
  group_id: e.groupId,
  author_id: e.authorId,
  action: e.action,
  target_type: e.targetType,
  target_id: e.targetId,
  target_iid: e.targetIid,
  target_title: e.targetTitle?.slice(0, 255) ?? null,
  note: e.note,
  push_data: e.pushData,
});
const milestoneRow = (m: MilestoneEventRow) => ({
  issue_id: m.issueId,
  merge_request_id: m.mergeRequestId,
  milestone_id: m.milestoneId,
  milestone_snapshot: m.milestoneSnapshot,
  action: m.action,
});
const stateRow = (st: StateEventRow) => ({
  issue_id: st.issueId,
  merge_request_id: st.mergeRequestId,
  state: st.state,
  source_commit: st.sourceCommit,
  source_merge_request_id: st.sourceMergeRequestId,
});
const iterationRow = (i: IterationEventRow) => ({
  issue_id: i.issueId,
  iteration_id: i.iterationId,
  iteration_snapshot: i.iterationSnapshot,
  action: i.action,
});
const weightRow = (w: WeightEventRow) => ({ issue_id: w.issueId, weight: w.weight });

/**
 * Writes projections. The event id goes into `projected_events` in the same transaction as
 * the rows, so a redelivered event (same id) is recognized and changes nothing.
 */
@Injectable()
export class ProjectionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Applies `plan` (null: a type without projections, only remembered) once per event id, in one statement (see `applyBatch`). */
  async apply(event: DomainEvent, plan: ProjectionPlan | null): Promise<ProjectionOutcome> {
    const [outcome] = await this.applyBatch([{ event, plan }]);
    return outcome.outcome;
  }

  /**
   * Applies a batch in ONE statement (one transaction, one round trip), with the same result
   * as `apply` on each event in order: every event id is claimed with multi-row inserts, and
   * the rows of the events this statement claimed are inserted in batch order (so ids, and
   * the order of the lists, follow the stream). Already projected ids and ids repeated in the
   * batch are duplicates and change nothing.
   */
  async applyBatch(batch: PlannedEvent[]): Promise<BatchOutcome[]> {
    const seen = new Set<string>();
    const claims: Array<{ event_id: string; type: string }> = [];
    const rows = { events: [] as object[], milestone: [] as object[], state: [] as object[], iteration: [] as object[], weight: [] as object[] };
    const followUps: FollowUp[] = [];
    for (const { event, plan } of batch) {
      const id = event.id.toLowerCase();
      if (seen.has(id)) continue;
      seen.add(id);
      const ord = claims.length;
      claims.push({ event_id: event.id, type: event.type.slice(0, 255) });
      if (!plan) continue;
      const common = { event_id: event.id, ord, created_at: event.occurred_at };
      const byActor = { ...common, user_id: event.actor };
      plan.events.forEach((e, sub) => rows.events.push({ ...common, sub, ...eventRow(e) }));
      for (const m of plan.milestoneEvents) rows.milestone.push({ ...byActor, ...milestoneRow(m) });
      for (const st of plan.stateEvents) rows.state.push({ ...byActor, ...stateRow(st) });
      for (const i of plan.iterationEvents) rows.iteration.push({ ...byActor, ...iterationRow(i) });
      for (const w of plan.weightEvents) rows.weight.push({ ...byActor, ...weightRow(w) });
      if (plan.removals.length > 0 || plan.noteUpdates.length > 0) followUps.push({ eventId: id, removals: plan.removals, noteUpdates: plan.noteUpdates });
    }
    if (claims.length === 0) return [];
    const parameters = [
      JSON.stringify(claims),
      JSON.stringify(rows.events),
      JSON.stringify(rows.milestone),
      JSON.stringify(rows.state),
      JSON.stringify(rows.iteration),
      JSON.stringify(rows.weight),
    ];
    // Removals and edits act on rows of earlier events (maybe of this very batch): after the
    // inserts, in stream order, in the same transaction, for the events this batch claimed.
    const claimed =
      followUps.length === 0
        ? ((await this.dataSource.query(APPLY_BATCH_SQL, parameters)) as Array<{ event_id: string }>)
        : await this.dataSource.transaction(async (tx) => {
            const ids = (await tx.query(APPLY_BATCH_SQL, parameters)) as Array<{ event_id: string }>;
            const claimedIds = new Set(ids.map((r) => r.event_id));
            for (const followUp of followUps) if (claimedIds.has(followUp.eventId)) await this.applyFollowUp(tx, followUp);
            return ids;
          });
    const fresh = new Set(claimed.map((r) => r.event_id));
    return batch.map(({ event, plan }) => {
      // The first occurrence of a claimed id is projected; a later one in the same batch is a duplicate.
      const first = fresh.delete(event.id.toLowerCase());
      return { event, outcome: !first ? 'duplicate' : plan ? 'projected' : 'skipped' };
    });
  }

  private async applyFollowUp(tx: EntityManager, { removals, noteUpdates }: FollowUp): Promise<void> {
    for (const update of noteUpdates) {
      await tx.query(`UPDATE events SET note = $2::jsonb WHERE target_type = 'Note' AND target_id = $1`, [update.noteId, JSON.stringify(update.note)]);
    }
    if (removals.length > 0) await tx.query(REMOVE_EVENTS_SQL, [JSON.stringify(removals.map(removalRow))]);
  }

  /** Empties every projection (the first step of a rebuild). */
  async truncate(): Promise<void> {
    await this.dataSource.query(`TRUNCATE ${PROJECTION_TABLES.join(', ')} RESTART IDENTITY`);
  }

  /**
   * Deletes contribution events older than `cutoff` (retention); returns how many. Each
   * project's `deleted_max_seq` is raised in the same statement (the positions above it stay
   * complete).
   */
  async deleteEventsBefore(cutoff: Date, batchSize = 10_000): Promise<number> {
    let total = 0;
    for (;;) {
      const [{ count }] = (await this.dataSource.query(
        `WITH removed AS (
           DELETE FROM events WHERE id IN (SELECT id FROM events WHERE created_at < $1 ORDER BY id LIMIT $2) RETURNING project_id, project_seq
         ), raised AS (
           UPDATE project_event_positions p SET deleted_max_seq = GREATEST(p.deleted_max_seq, r.max_seq)
           FROM (SELECT project_id, max(project_seq) AS max_seq FROM removed WHERE project_id IS NOT NULL GROUP BY project_id) r
           WHERE p.project_id = r.project_id
         )
         SELECT count(*)::int AS count FROM removed`,
        [cutoff.toISOString(), batchSize],
      )) as Array<{ count: number }>;
      total += count;
      if (count < batchSize) return total;
    }
  }
}
