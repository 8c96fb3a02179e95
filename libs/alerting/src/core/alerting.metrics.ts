import { Injectable } from '@nestjs/common';
import { MetricsService } from '@app/observability';
import type { Counter, Histogram } from 'prom-client';

/** Why a notify request was refused (label values of `alerts_rejected_total`). */
/**
 * Where a notify request's wall time goes (label values of `alert_ingest_stage_seconds`):
 * `rate_limit` the rate limiter's round trip; `queued` a request's wait from its submission to
 * the start of the batch that takes it; `batch` a request's wait from that start to its answer
 * (every attempt, retries included); per attempt of a batch, `connect` (a pool connection),
 * `lock` (BEGIN + counter and open-alert locks + read: includes waiting for the locks another
 * batch holds until its COMMIT), `plan` (in memory), `write_commit` (the write statement and
 * COMMIT, its WAL flush).
 */
export type AlertIngestStage = 'rate_limit' | 'queued' | 'batch' | 'connect' | 'lock' | 'plan' | 'write_commit';

export type AlertRejectionReason =
  'unknown_integration' | 'unauthorized' | 'inactive' | 'rate_limited' | 'too_large' | 'too_deep' | 'not_an_object' | 'invalid_json' | 'not_a_webhook';

/** Alert ingestion metrics on `/-/metrics`. */
@Injectable()
export class AlertingMetrics {
  readonly received: Counter<string>;
  readonly created: Counter<string>;
  readonly grouped: Counter<string>;
  readonly resolved: Counter<string>;
  readonly unmatchedRecoveries: Counter<string>;
  readonly rejected: Counter<'reason'>;
  readonly ingestionSeconds: Histogram<string>;
  readonly ingestStageSeconds: Histogram<'stage'>;
  readonly ingestBatchPayloads: Histogram<string>;
  readonly ingestBatchesInFlight: Histogram<string>;
  readonly ingestBatchRetries: Counter<'reason'>;

  constructor(metrics: MetricsService) {
    this.received = metrics.counter('alerts_received_total', 'Alert payloads accepted for processing');
    this.created = metrics.counter('alerts_created_total', 'Alerts created by ingestion');
    this.grouped = metrics.counter('alerts_grouped_total', 'Alert payloads grouped into an open alert');
    this.resolved = metrics.counter('alerts_resolved_total', 'Alerts resolved by a recovery payload');
    this.unmatchedRecoveries = metrics.counter('alert_recoveries_unmatched_total', 'Recovery payloads that matched no open alert');
    this.rejected = metrics.counter('alerts_rejected_total', 'Alert notify requests refused, by reason', ['reason']);
    this.ingestionSeconds = metrics.histogram(
      'alert_ingestion_duration_seconds',
      'Time to authenticate, check, normalize and commit an alert payload',
      [],
      [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    );
    this.ingestStageSeconds = metrics.histogram(
      'alert_ingest_stage_seconds',
      'Where the time of alert ingestion goes, by stage (see AlertIngestStage)',
      ['stage'],
      [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    );
    this.ingestBatchPayloads = metrics.histogram(
      'alert_ingest_batch_payloads',
      'Alert payloads written per ingestion batch (one transaction)',
      [],
      [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
    );
    this.ingestBatchRetries = metrics.counter(
      'alert_ingest_batch_retries_total',
      'Ingestion batches run again, by reason (open_alert_created: another batch created an open alert of one of its fingerprints; transaction: deadlock or serialization; prepared_statement; connection: its connection was cut before its COMMIT was sent)',
      ['reason'],
    );
    this.ingestBatchesInFlight = metrics.histogram(
      'alert_ingest_batches_in_flight',
      'Ingestion batches being written when a batch starts (itself included)',
      [],
      [1, 2, 3, 4, 6, 8, 12, 16],
    );
  }
}
