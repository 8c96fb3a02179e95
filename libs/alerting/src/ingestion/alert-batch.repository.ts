import { Injectable } from '@nestjs/common';
import type { OutboxRecord } from '@app/messaging';
import { takePoolConnection } from '@app/database';
import { DataSource } from 'typeorm';
import type { AlertState } from './alert-batch-plan';

/** A connection of the data source's pool (node-postgres client), used without the ORM on the hot path. */
export interface BatchConnection {
  query(text: string): Promise<unknown>;
}

/** The open alerts' columns a batch needs (not `details`: an open alert's attributes do not change). */
const OPEN_ALERT_COLUMNS = `a.id, a.project_id, a.iid, a.title, a.description, a.severity, a.status, a.service, a.monitoring_tool,
  a.hosts, a.started_at, a.ended_at, a.event_count, a.fingerprint, a.environment, a.integration_id, a.last_received_at`;

/**
 * Takes the iid counter row lock of each project (creating the row on first use), in project
 * order, and reads nothing: the lock-first path of a batch run again after it met an open
 * alert created under it (see `AlertBatchRepository.begin`).
 */
const LOCK_COUNTERS_SQL = `INSERT INTO alert_iid_counters (project_id, last_iid)
  SELECT project_id, 0 FROM unnest($1::int[]) AS project_id ORDER BY project_id
  ON CONFLICT (project_id) DO UPDATE SET last_iid = alert_iid_counters.last_iid`;

/**
 * Row-locks the open alerts of these (project, fingerprint) pairs, in id order. It takes no
 * lock a concurrent batch creating alerts would wait for: an open alert another batch creates
 * meanwhile makes this batch's insert of the same fingerprint fail on the open-fingerprint
 * unique index (once that batch commits), and the batch is run again (it then finds the alert).
 */
const LOCK_OPEN_ALERTS_SQL = `SELECT ${OPEN_ALERT_COLUMNS}
  FROM unnest($1::int[], $2::bpchar[]) AS k(project_id, fingerprint)
  JOIN alerts a ON a.project_id = k.project_id AND a.fingerprint = k.fingerprint AND a.status <> 'resolved'
  ORDER BY a.id
  FOR UPDATE OF a`;

/**
 * Every write of a batch in one statement: the iid counters of the projects where it creates
 * alerts (row-locked here, in project order, until COMMIT: iids stay gap-free, and the lock is
 * held only inside PostgreSQL for this statement and the COMMIT, not across a round trip to
 * the gateway), the new alerts (iids: the batch's relative iid 1, 2, … after the counter's
 * previous value; ids drawn from the sequence first, so that notes and events can refer to
 * them), the loaded alerts the batch changed, the unmatched recoveries, the system notes and the
 * outbox rows (in input order, their alert id and iid or recovery id filled in), and the
 * relay's wake-up (delivered at commit). Returns the ids and iids drawn, by reference.
 * Parameters: the six JSON documents (`$3`: the number of new alerts per project) and the channel.
 */
const WRITE_SQL = `WITH counter_input AS MATERIALIZED (
    SELECT x.project_id, x.created FROM jsonb_to_recordset($3::jsonb) AS x(project_id int, created int)
  ), counters AS (
    INSERT INTO alert_iid_counters AS c (project_id, last_iid)
    SELECT project_id, created FROM counter_input ORDER BY project_id
    ON CONFLICT (project_id) DO UPDATE SET last_iid = c.last_iid + excluded.last_iid
    RETURNING c.project_id, c.last_iid
  ), bases AS MATERIALIZED (
    SELECT c.project_id, c.last_iid - i.created AS base FROM counters c JOIN counter_input i ON i.project_id = c.project_id
  ), new_alerts AS MATERIALIZED (
    SELECT x.*, (x.relative_iid + b.base)::int AS iid, nextval(pg_get_serial_sequence('alerts', 'id'))::int AS id
    FROM jsonb_to_recordset($1::jsonb) AS x(ref int, project_id int, relative_iid int, integration_id int, title text,
      description text, severity text, status text, service text, monitoring_tool text, hosts jsonb, started_at timestamptz,
      ended_at timestamptz, event_count int, last_received_at timestamptz, fingerprint text, environment text, details jsonb)
    JOIN bases b ON b.project_id = x.project_id
  ), inserted AS (
    INSERT INTO alerts (id, project_id, iid, integration_id, title, description, severity, status, service, monitoring_tool,
      hosts, started_at, ended_at, event_count, last_received_at, fingerprint, environment, details)
    SELECT id, project_id, iid, integration_id, title, description, severity, status, service, monitoring_tool,
      ARRAY(SELECT jsonb_array_elements_text(hosts)), started_at, ended_at, event_count, last_received_at, fingerprint,
      environment, details
    FROM new_alerts ORDER BY ref
  ), updated AS (
    UPDATE alerts AS a SET status = x.status, ended_at = x.ended_at, event_count = x.event_count,
      last_received_at = x.last_received_at, updated_at = now()
    FROM jsonb_to_recordset($2::jsonb) AS x(id int, status text, ended_at timestamptz, event_count int, last_received_at timestamptz)
    WHERE a.id = x.id
  ), recovery_input AS MATERIALIZED (
    SELECT x.*, nextval(pg_get_serial_sequence('alert_unmatched_recoveries', 'id'))::int AS id
    FROM jsonb_to_recordset($4::jsonb) AS x(ref int, project_id int, integration_id int, fingerprint text, title text,
      ended_at timestamptz, payload jsonb)
  ), recoveries AS (
    INSERT INTO alert_unmatched_recoveries (id, project_id, integration_id, fingerprint, title, ended_at, payload)
    SELECT id, project_id, integration_id, fingerprint, title, ended_at, payload FROM recovery_input ORDER BY ref
  ), notes AS (
    INSERT INTO alert_notes (alert_id, author_id, body, system)
    SELECT coalesce(n.alert_id, na.id), n.author_id, n.body, true
    FROM jsonb_to_recordset($5::jsonb) AS n(ord int, alert_id int, alert_ref int, author_id int, body text)
    LEFT JOIN new_alerts na ON na.ref = n.alert_ref
    ORDER BY n.ord
  ), events AS (
    INSERT INTO outbox_events (id, topic, message_key, payload, headers)
    SELECT e.id, e.topic, e.message_key,
      CASE WHEN na.id IS NOT NULL THEN jsonb_set(jsonb_set(jsonb_set(jsonb_set(e.payload, '{target,id}', to_jsonb(na.id)),
             '{target,iid}', to_jsonb(na.iid)), '{data,alert_id}', to_jsonb(na.id)), '{data,iid}', to_jsonb(na.iid))
           WHEN ri.id IS NOT NULL THEN jsonb_set(e.payload, '{data,recovery_id}', to_jsonb(ri.id))
           ELSE e.payload END,
      e.headers
    FROM jsonb_to_recordset($6::jsonb) AS e(ord int, id uuid, topic text, message_key text, payload jsonb, headers jsonb,
      alert_ref int, recovery_ref int)
    LEFT JOIN new_alerts na ON na.ref = e.alert_ref
    LEFT JOIN recovery_input ri ON ri.ref = e.recovery_ref
    ORDER BY e.ord
  )
  SELECT 'alert' AS kind, ref, id, iid FROM new_alerts
  UNION ALL SELECT 'recovery', ref, id, 0 FROM recovery_input
  UNION ALL SELECT 'notify', 0, 0, 0 FROM (SELECT pg_notify($7::text, '')) AS wake`;

/**
 * The statements of a batch, prepared once on each connection of the pool (`PREPARE`): a
 * batch then runs `EXECUTE`s, which PostgreSQL neither parses nor plans again (planning the
 * write statement alone cost about 2 ms of its CPU per batch), in the same two round trips.
 */
export const BATCH_STATEMENTS = {
  lockCounters: { name: 'alert_ingest_lock_counters', parameters: 'int[]', sql: LOCK_COUNTERS_SQL },
  lockOpenAlerts: { name: 'alert_ingest_lock_open_alerts', parameters: 'int[], bpchar[]', sql: LOCK_OPEN_ALERTS_SQL },
  write: { name: 'alert_ingest_write', parameters: 'jsonb, jsonb, jsonb, jsonb, jsonb, jsonb, text', sql: WRITE_SQL },
} as const;

/** SQLSTATE of an `EXECUTE` of a statement the session does not have (it was deallocated). */
const MISSING_PREPARED_STATEMENT = '26000';
/** SQLSTATE of a `PREPARE` of a name the session already has. */
const DUPLICATE_PREPARED_STATEMENT = '42P05';

/** Connections (node-postgres clients) that have the batch statements prepared, whichever repository prepared them. */
const preparedConnections = new WeakSet<BatchConnection>();

/** Prepares the batch statements on a connection; one that has them already (same text: same process) is kept. */
async function prepareBatchStatements(connection: BatchConnection): Promise<void> {
  for (const statement of Object.values(BATCH_STATEMENTS)) {
    try {
      await connection.query(`PREPARE ${statement.name} (${statement.parameters}) AS ${statement.sql}`);
    } catch (error) {
      if ((error as { code?: unknown }).code !== DUPLICATE_PREPARED_STATEMENT) throw error;
    }
  }
}

/** The batch failed because its connection lost the prepared statements: running it again prepares them anew. */
export const missingPreparedStatement = (error: unknown): boolean => {
  const e = error as { code?: unknown; driverError?: { code?: unknown } };
  return (e.code ?? e.driverError?.code) === MISSING_PREPARED_STATEMENT;
};

interface QueryResult<T> {
  rows: T[];
}

const resultsOf = (raw: unknown): Array<QueryResult<unknown>> => (Array.isArray(raw) ? raw : [raw]) as Array<QueryResult<unknown>>;

/**
 * A string literal, exactly as the driver's `escapeLiteral` writes it (quotes doubled; with a
 * backslash, an `E''` literal with backslashes doubled), but with two native replacements
 * instead of a loop over every character: a batch's literals are hundreds of kilobytes.
 */
export function escapeLiteral(text: string): string {
  const quoted = text.includes("'") ? text.replaceAll("'", "''") : text;
  if (!text.includes('\\')) return `'${quoted}'`;
  return ` E'${quoted.replaceAll('\\', '\\\\')}'`;
}

/** A literal of a JSON document. */
export const jsonLiteral = (value: unknown): string => escapeLiteral(JSON.stringify(value));

const intArrayLiteral = (values: number[]): string => {
  for (const v of values) if (!Number.isSafeInteger(v)) throw new Error(`not an integer: ${v}`);
  return `ARRAY[${values.join(',')}]`;
};

export interface UnmatchedRecoveryRow {
  ref: number;
  project_id: number;
  integration_id: number | null;
  fingerprint: string | null;
  title: string;
  ended_at: Date;
  payload: Record<string, unknown>;
}

/** A system note: on a loaded alert (`alert_id`) or on a new one (`alert_ref`, its index in the created list). */
export interface NoteRow {
  alert_id: number | null;
  alert_ref: number | null;
  author_id: number | null;
  body: string;
}

/** An outbox row (`outboxRecordOf`); `alert_ref` / `recovery_ref` mark the id to fill in (`target.id` + `data.alert_id`, or `data.recovery_id`). */
export interface OutboxRow extends OutboxRecord {
  alert_ref: number | null;
  recovery_ref: number | null;
}

export interface BatchWrite {
  created: AlertState[];
  updated: AlertState[];
  /** New alerts per project (their counters' increments). */
  createdPerProject: Map<number, number>;
  recoveries: UnmatchedRecoveryRow[];
  notes: NoteRow[];
  events: OutboxRow[];
  outboxChannel: string;
}

/**
 * The statements of batched ingestion (the hot path), run on a connection of the data
 * source's pool without the ORM. A batch costs two round trips whatever its size:
 * `BEGIN` + locks + read, then every write + `COMMIT` (several statements per message: the
 * simple query protocol, values inlined as escaped literals into `EXECUTE`s of the
 * statements prepared on the connection, see `BATCH_STATEMENTS`).
 */
@Injectable()
export class AlertBatchRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * A connection of the pool, its batch statements prepared, and its release (pass the error to
   * discard a broken connection). A connection cut while held (its backend terminated: a
   * restart or failover) fails its statements, never the process, and is discarded on release.
   */
  async connect(): Promise<[BatchConnection, (error?: unknown) => void]> {
    const [connection, release] = await takePoolConnection<BatchConnection>(this.dataSource);
    if (!preparedConnections.has(connection)) {
      try {
        await prepareBatchStatements(connection);
      } catch (error) {
        release(error);
        throw error;
      }
      preparedConnections.add(connection);
    }
    return [connection, release];
  }

  /**
   * Opens the transaction and locks the open alerts of `keys`; returns them. With
   * `counterProjects` (a batch run again after another batch created an open alert under it),
   * it then takes those projects' counter locks and reads the open alerts again: no other batch
   * can create an alert in these projects until this one commits, so the second read is
   * complete and the batch cannot meet the same conflict twice. The open alerts are locked
   * before the counters, in the order every batch takes its locks.
   */
  async begin(connection: BatchConnection, keys: Array<{ projectId: number; fingerprint: string }>, counterProjects: number[] = []): Promise<AlertState[]> {
    const statements = ['BEGIN'];
    if (keys.length > 0) {
      const projectIds = intArrayLiteral(keys.map((k) => k.projectId));
      const fingerprints = `ARRAY[${keys.map((k) => escapeLiteral(k.fingerprint)).join(',')}]::bpchar[]`;
      const lockOpen = `EXECUTE ${BATCH_STATEMENTS.lockOpenAlerts.name}(${projectIds}::int[], ${fingerprints})`;
      statements.push(lockOpen);
      if (counterProjects.length > 0) statements.push(`EXECUTE ${BATCH_STATEMENTS.lockCounters.name}(${intArrayLiteral(counterProjects)}::int[])`, lockOpen);
    }
    const results = resultsOf(await this.run(connection, statements.join(';\n')));
    const open: AlertState[] = [];
    if (keys.length > 0) {
      for (const row of results[results.length - 1].rows as AlertState[]) open.push({ ...row, details: {}, isNew: false, touched: false });
    }
    return open;
  }

  /**
   * Writes the batch and commits; sets the ids and iids of the new alerts (their `iid` on entry:
   * 1, 2, … within their project in this batch) and returns the recovery ids by `ref`.
   */
  async commit(connection: BatchConnection, batch: BatchWrite): Promise<Map<number, number>> {
    const created = batch.created.map((a, ref) => ({
      ref,
      project_id: a.project_id,
      relative_iid: a.iid,
      integration_id: a.integration_id,
      title: a.title,
      description: a.description,
      severity: a.severity,
      status: a.status,
      service: a.service,
      monitoring_tool: a.monitoring_tool,
      hosts: a.hosts,
      started_at: a.started_at,
      ended_at: a.ended_at,
      event_count: a.event_count,
      last_received_at: a.last_received_at,
      fingerprint: a.fingerprint,
      environment: a.environment,
      details: a.details,
    }));
    const updated = batch.updated.map((a) => ({
      id: a.id,
      status: a.status,
      ended_at: a.ended_at,
      event_count: a.event_count,
      last_received_at: a.last_received_at,
    }));
    const counters = [...batch.createdPerProject].map(([project_id, created]) => ({ project_id, created }));
    const parameters = [
      jsonLiteral(created),
      jsonLiteral(updated),
      jsonLiteral(counters),
      jsonLiteral(batch.recoveries),
      jsonLiteral(batch.notes.map((n, ord) => ({ ord, ...n }))),
      jsonLiteral(batch.events.map((e, ord) => ({ ord, ...e }))),
      escapeLiteral(batch.outboxChannel),
    ];
    const results = resultsOf(await this.run(connection, `EXECUTE ${BATCH_STATEMENTS.write.name}(${parameters.join(', ')});\nCOMMIT`));
    const recoveryIds = new Map<number, number>();
    for (const row of results[0].rows as Array<{ kind: string; ref: number; id: number; iid: number }>) {
      if (row.kind === 'alert') {
        const alert = batch.created[Number(row.ref)];
        alert.id = Number(row.id);
        alert.iid = Number(row.iid);
      } else if (row.kind === 'recovery') recoveryIds.set(Number(row.ref), Number(row.id));
    }
    return recoveryIds;
  }

  async rollback(connection: BatchConnection): Promise<void> {
    await connection.query('ROLLBACK');
  }

  /** Runs a message; a connection that lost its prepared statements prepares them again when next obtained. */
  private async run(connection: BatchConnection, text: string): Promise<unknown> {
    try {
      return await connection.query(text);
    } catch (error) {
      if (missingPreparedStatement(error)) preparedConnections.delete(connection);
      throw error;
    }
  }
}
