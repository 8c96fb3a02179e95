import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { AppConfig } from '@app/config';
import { REDIS, redisKey } from '@app/queue';
import type { Redis } from 'ioredis';
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
    @Inject(REDIS) private readonly redis: Redis,
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
    const nowSeconds = Math.floor(Date.now() / 1000);
    const window = Math.floor(nowSeconds / period);
    const key = redisKey(this.config.redis.prefix, 'alert-notify-rate', projectId, window);
    const replies = await this.redis.multi().incr(key).expire(key, period + 1).exec();
    const [error, count] = (replies?.[0] ?? [null, 0]) as [Error | null, number];
    if (error) throw error;
    if (count > limit) throw this.reject('rate_limited', DomainError.rateLimited((window + 1) * period - nowSeconds));
  }

  private reject(reason: AlertRejectionReason, error: DomainError): DomainError {
    this.metrics.rejected.inc({ reason });
    return error;
  }
}
