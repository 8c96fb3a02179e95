import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@app/api/errors';
import { AppConfig } from '@app/config';
import { ProjectsRepository } from '@app/namespaces';
import { REDIS, redisKey } from '@app/queue';
import type { Redis } from 'ioredis';
import { AlertingMetrics, AlertRejectionReason } from '../alerting.metrics';
import { parseAlertPayload } from '../engine/alert-payload-parser';
import { HttpIntegrationsRepository } from '../http-integrations.repository';
import { integrationTokenMatches, notifyCredentialOf } from '../integration-token';
import { IngestAlertResult, IngestAlertUseCase } from './ingest-alert.use-case';

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
    private readonly projects: ProjectsRepository,
    private readonly integrations: HttpIntegrationsRepository,
    private readonly ingest: IngestAlertUseCase,
    private readonly metrics: AlertingMetrics,
    private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async execute(command: ReceiveAlertNotificationCommand): Promise<IngestAlertResult> {
    const timer = this.metrics.ingestionSeconds.startTimer();
    const project = command.projectPath.includes('/') ? await this.projects.findByRef(command.projectPath) : null;
    const integration = project ? await this.integrations.findForNotify(project.id, command.endpointIdentifier) : null;
    if (!project || !integration) throw this.reject('unknown_integration', DomainError.notFound('Integration'));

    const key = notifyCredentialOf(command.authorization);
    if (key === null || !integrationTokenMatches(key, integration.tokenDigest)) throw this.reject('unauthorized', DomainError.unauthorized());
    if (!integration.active) throw this.reject('inactive', DomainError.forbidden('the integration is inactive'));
    await this.enforceRateLimit(project.id);

    if (!Buffer.isBuffer(command.body)) throw this.reject('not_an_object', DomainError.badRequest('the alert payload must be a JSON object'));
    const parsed = parseAlertPayload(command.body);
    if (!parsed.ok) throw this.reject(parsed.reason, DomainError.badRequest(parsed.message));

    const result = await this.ingest.execute({
      project: { id: project.id, groupId: project.namespace.kind === 'group' ? project.namespace.id : null },
      integration,
      payload: parsed.payload,
      receivedAt: command.receivedAt,
    });
    timer();
    return result;
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
