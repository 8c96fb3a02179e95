import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { AppConfig } from '@app/config';
import { FixedWindowRateLimiter } from '@app/queue';
import { AlertingMetrics, AlertRejectionReason } from '../alerting.metrics';
import { parseAlertPayload } from '../engine/alert-payload-parser';
import { NotifyTargetCache } from '../ingestion/notify-target.cache';
import { integrationTokenMatches, notifyCredentialOf } from '../integration-token';
import { IngestAlertResult, IngestAlertUseCase } from './ingest-alert.use-case';

const foreignKeyViolation = (error: unknown): boolean => {
  const e = error as { code?: unknown; driverError?: { code?: unknown } };
  return (e.code ?? e.driverError?.code) === '23503';
};

export interface ReceiveAlertNotificationCommand {
  projectPath: string;
  /** Null for `alerts/notify.json` (the project's first integration). */
  endpointIdentifier: string | null;
  authorization: string | string[] | undefined;
  /** The raw request body (`@RawJsonBody()`); anything else is not JSON. */
  body: unknown;
  receivedAt: Date;
}

/**
 * A monitoring tool posts an alert. In order: unknown project or integration 404; missing or
 * wrong key 401; inactive integration 403; over the project's rate limit 429; body over
 * 1 MB, nested deeper than 100 or not a JSON object 400 (checked on the bytes before parsing);
 * then ingestion, committed before the answer.
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

  async execute(command: ReceiveAlertNotificationCommand): Promise<IngestAlertResult> {
    const timer = this.metrics.ingestionSeconds.startTimer();
    const target = await this.targets.get(command.projectPath, command.endpointIdentifier);
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
      const result = await this.ingest.execute({ project, integration, payload: parsed.payload, receivedAt: command.receivedAt, payloadBytes: command.body.length });
      timer();
      return result;
    } catch (error) {
      // The project or the integration was deleted after it was cached.
      if (foreignKeyViolation(error)) {
        this.targets.clear();
        throw this.reject('unknown_integration', DomainError.notFound('Integration'));
      }
      throw error;
    }
  }

  /** Fixed window per project: `limit` requests per `period` seconds, then 429 until the window ends. */
  private async enforceRateLimit(projectId: number): Promise<void> {
    const { notifyRateLimit: limit, notifyRatePeriodSeconds: period } = this.config.alerting;
    if (limit <= 0) return;
    const verdict = await this.limiter.hit(['alert-notify-rate', projectId], limit, period);
    if (!verdict.allowed) throw this.reject('rate_limited', DomainError.rateLimited(verdict.retryAfterSeconds));
  }

  private reject(reason: AlertRejectionReason, error: DomainError): DomainError {
    this.metrics.rejected.inc({ reason });
    return error;
  }
}
