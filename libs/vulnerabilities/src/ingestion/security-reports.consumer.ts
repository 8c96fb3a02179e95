import { Injectable, Logger } from '@nestjs/common';
import { tierAtLeast } from '@app/api';
import { COMPLETED_STATUSES, isJobStatus } from '@app/ci';
import { AppConfig } from '@app/config';
import { CataloguedEvent, CONSUMER_GROUPS, DomainEventConsumerOptions, DomainEventSubscriber } from '@app/messaging';
import { IngestSecurityReportsUseCase } from '../use-cases/ingest-security-reports.use-case';

/** The pipeline whose reports a status change asks to ingest: a pipeline that has just finished (success, failed, canceled, skipped). */
export function finishedPipelineOf(event: CataloguedEvent<'pipeline.status_changed'>): number | null {
  const { pipeline_id: pipelineId, to } = event.data;
  if (pipelineId <= 0) return null;
  return isJobStatus(to) && COMPLETED_STATUSES.has(to) ? pipelineId : null;
}

/**
 * Ingests the security reports of every default-branch pipeline that finishes, reacting to
 * `pipeline.status_changed` (GitLab stores security scans when a pipeline reaches a completed
 * status). ULTIMATE only: on a lower tier the events are passed over. Idempotent: ingesting a
 * pipeline again replaces its scans and upserts the same findings, so redelivery and a retried
 * pipeline finishing again are both safe. A report that does not parse is recorded on the
 * pipeline; only an infrastructure failure (database) makes the handler throw (retried, then
 * dead-lettered by the consumer base).
 */
@Injectable()
export class SecurityReportsConsumer extends DomainEventSubscriber {
  private readonly logger = new Logger(SecurityReportsConsumer.name);

  constructor(
    private readonly config: AppConfig,
    private readonly ingest: IngestSecurityReportsUseCase,
  ) {
    super();
  }

  protected consumerOptions(): DomainEventConsumerOptions {
    return { groupId: CONSUMER_GROUPS.SECURITY_REPORTS, handlers: { 'pipeline.status_changed': (event) => this.handle(event) } };
  }

  async handle(event: CataloguedEvent<'pipeline.status_changed'>): Promise<void> {
    const pipelineId = finishedPipelineOf(event);
    if (pipelineId === null || !tierAtLeast(this.config.tier, 'ultimate')) return;
    const outcome = await this.ingest.execute(pipelineId);
    if (outcome.kind === 'skipped') this.logger.debug(`security reports of pipeline ${pipelineId} not ingested: ${outcome.reason}`);
  }
}
