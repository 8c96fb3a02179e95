import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { AppConfig } from '@app/config';
import { FixedWindowRateLimiter } from '@app/queue';
import { AlertingMetrics, AlertRejectionReason } from '../core/alerting.metrics';
import { parseAlertPayload } from '../engine/alert-payload-parser';
import { checkPrometheusPayload, normalizePrometheusAlert } from '../engine/prometheus-payload';
import { FIRST_HTTP_INTEGRATION, type NotifySelector, PROMETHEUS_INTEGRATION } from '../core/http-integrations.repository';
import { NotifyTargetCache } from '../ingestion/notify-target.cache';
import { integrationTokenMatches, notifyCredentialOf } from '../core/integration-token';
import { IngestAlertResult, IngestAlertUseCase } from './ingest-alert.use-case';

const foreignKeyViolation = (error: unknown): boolean => {
  const e = error as { code?: unknown; driverError?: { code?: unknown } };
  return (e.code ?? e.driverError?.code) === '23503';
};

export interface ReceiveAlertNotificationCommand {
  projectPath: string;
  /**
   * The endpoint identifier of `alerts/notify/:name/:endpoint.json`; null for
   * `alerts/notify.json` (the project's first HTTP integration); `prometheus` for
   * `prometheus/alerts/notify.json` (the project's Prometheus integration).
   */
  endpointIdentifier: string | null | typeof PROMETHEUS_INTEGRATION;
  authorization: string | string[] | undefined;
  /** The raw request body (`@RawJsonBody()`); anything else is not JSON. */
  body: unknown;
  receivedAt: Date;
}

/**
 * A monitoring tool posts an alert. In order: unknown project or integration 404; missing or
 * wrong key 401; inactive integration 403; over the project's rate limit 429; body over
 * 1 MB, nested deeper than 100 or not a JSON object 400 (checked on the bytes before parsing);
 * for a Prometheus integration, not an Alertmanager / Grafana webhook 422; then ingestion,
 * committed before the answer.
 */
@Injectable()
export class ReceiveAlertNotificationUseCase {
  constructor(
    private readonly targets: NotifyTargetCache,
    private readonly ingest: IngestAlertUseCase,
    private readonly metrics: AlertingMetrics,
    private readonly config: AppConfig,
    private readonly limiter: FixedWindowRateLimiter,
  ) {}

  async execute(command: ReceiveAlertNotificationCommand): Promise<Pick<IngestAlertResult, 'alerts'>> {
    const timer = this.metrics.ingestionSeconds.startTimer();
    const target = await this.findTarget(command.projectPath, command.endpointIdentifier);
    if (!target) throw this.reject('unknown_integration', DomainError.notFound('Integration'));
    const { project, integration } = target;

    const key = notifyCredentialOf(command.authorization);
    if (key === null || !integrationTokenMatches(key, integration.tokenDigest)) throw this.reject('unauthorized', DomainError.unauthorized());
    if (!integration.active) throw this.reject('inactive', DomainError.forbidden('the integration is inactive'));
    await this.enforceRateLimit(project.id);

    if (!Buffer.isBuffer(command.body)) throw this.reject('not_an_object', DomainError.badRequest('the alert payload must be a JSON object'));
    const parsed = parseAlertPayload(command.body);
    if (!parsed.ok) throw this.reject(parsed.reason, DomainError.badRequest(parsed.message));

    try {
      let alerts: IngestAlertResult['alerts'];
      if (integration.type === 'prometheus') {
        const webhook = checkPrometheusPayload(parsed.payload);
        if (!webhook.ok) throw this.reject('not_a_webhook', DomainError.unprocessable(webhook.message));
        alerts = await this.ingest.executeMany({
          project,
          integration,
          alerts: webhook.alerts.map((element) => ({ alert: normalizePrometheusAlert(element, webhook.source, command.receivedAt), payload: element.raw })),
          receivedAt: command.receivedAt,
          payloadBytes: command.body.length,
        });
      } else {
        ({ alerts } = await this.ingest.execute({
          project,
          integration,
          payload: parsed.payload,
          receivedAt: command.receivedAt,
          payloadBytes: command.body.length,
        }));
      }
      timer();
      return { alerts };
    } catch (error) {
      // The project or the integration was deleted after it was cached.
      if (foreignKeyViolation(error)) {
        this.targets.clear();
        throw this.reject('unknown_integration', DomainError.notFound('Integration'));
      }
      throw error;
    }
  }

  /**
   * The integration a notify URL names. `…/prometheus/alerts/notify.json` is also the first
   * integration's URL of a project whose path ends in `/prometheus`: without a Prometheus
   * integration at the shorter path, that project's is used.
   */
  private async findTarget(projectPath: string, endpointIdentifier: ReceiveAlertNotificationCommand['endpointIdentifier']) {
    const selector: NotifySelector =
      endpointIdentifier === PROMETHEUS_INTEGRATION ? PROMETHEUS_INTEGRATION : endpointIdentifier === null ? FIRST_HTTP_INTEGRATION : { endpointIdentifier };
    const target = await this.targets.get(projectPath, selector);
    if (target || selector !== PROMETHEUS_INTEGRATION) return target;
    return this.targets.get(`${projectPath}/prometheus`, FIRST_HTTP_INTEGRATION);
  }

  /** Fixed window per project: `limit` requests per `period` seconds, then 429 until the window ends. */
  private async enforceRateLimit(projectId: number): Promise<void> {
    const { notifyRateLimit: limit, notifyRatePeriodSeconds: period } = this.config.alerting;
    if (limit <= 0) return;
    const timer = this.metrics.ingestStageSeconds.startTimer({ stage: 'rate_limit' });
    const verdict = await this.limiter.hit(['alert-notify-rate', projectId], limit, period);
    timer();
    if (!verdict.allowed) throw this.reject('rate_limited', DomainError.rateLimited(verdict.retryAfterSeconds));
  }

  private reject(reason: AlertRejectionReason, error: DomainError): DomainError {
    this.metrics.rejected.inc({ reason });
    return error;
  }
}
