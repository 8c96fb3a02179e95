import { Injectable } from '@nestjs/common';
import { MetricsService } from '@app/observability';
import type { Counter, Histogram } from 'prom-client';

/** Why a notify request was refused (label values of `alerts_rejected_total`). */
export type AlertRejectionReason = 'unknown_integration' | 'unauthorized' | 'inactive' | 'rate_limited' | 'too_large' | 'too_deep' | 'not_an_object' | 'invalid_json' | 'not_a_webhook';

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

  constructor(metrics: MetricsService) {
    this.received = metrics.counter('alerts_received_total', 'Alert payloads accepted for processing');
    this.created = metrics.counter('alerts_created_total', 'Alerts created by ingestion');
    this.grouped = metrics.counter('alerts_grouped_total', 'Alert payloads grouped into an open alert');
    this.resolved = metrics.counter('alerts_resolved_total', 'Alerts resolved by a recovery payload');
    this.unmatchedRecoveries = metrics.counter('alert_recoveries_unmatched_total', 'Recovery payloads that matched no open alert');
    this.rejected = metrics.counter('alerts_rejected_total', 'Alert notify requests refused, by reason', ['reason']);
    this.ingestionSeconds = metrics.histogram('alert_ingestion_duration_seconds', 'Time to authenticate, check, normalize and commit an alert payload', [], [
      0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
    ]);
  }
}
