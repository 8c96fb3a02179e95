import { Injectable, Logger } from '@nestjs/common';
import { tierAtLeast } from '@app/api';
import { COMPLETED_STATUSES, isJobStatus } from '@app/ci';
import { AppConfig } from '@app/config';
import { assertNever, CI_EVENT_PART, CONSUMER_GROUPS, DomainEvent, DomainEventConsumerOptions, DomainEventSubscriber } from '@app/messaging';
import { IngestSecurityReportsUseCase } from '../use-cases/ingest-security-reports.use-case';

/** What the ingestion does with each event of libs/ci (exhaustive: a new CI event does not compile until given a role). */
const SECURITY_REPORT_ROUTES = {
  'pipeline.status_changed': 'pipeline_status',
  'pipeline.created': 'ignored',
  'pipeline.deleted': 'ignored',
  'job.status_changed': 'ignored',
  'job.erased': 'ignored',
} as const satisfies Record<keyof typeof CI_EVENT_PART, 'pipeline_status' | 'ignored'>;

const isCiEventType = (type: string): type is keyof typeof SECURITY_REPORT_ROUTES => Object.hasOwn(SECURITY_REPORT_ROUTES, type);

/** The pipeline whose reports an event asks to ingest: a pipeline that has just finished (success, failed, canceled, skipped). */
export function finishedPipelineOf(event: DomainEvent): number | null {
  if (!isCiEventType(event.type)) return null;
  const route = SECURITY_REPORT_ROUTES[event.type];
  switch (route) {
    case 'pipeline_status': {
      const { pipeline_id: pipelineId, to } = event.data as { pipeline_id?: unknown; to?: unknown };
      if (typeof pipelineId !== 'number' || !Number.isSafeInteger(pipelineId) || pipelineId <= 0) return null;
      return isJobStatus(to) && COMPLETED_STATUSES.has(to) ? pipelineId : null;
    }
    case 'ignored':
      return null;
    default:
      return assertNever(route, 'security report route');
  }
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
    return { groupId: CONSUMER_GROUPS.SECURITY_REPORTS, handler: (event) => this.handle(event) };
  }

  async handle(event: DomainEvent): Promise<void> {
    const pipelineId = finishedPipelineOf(event);
    if (pipelineId === null || !tierAtLeast(this.config.tier, 'ultimate')) return;
    const outcome = await this.ingest.execute(pipelineId);
    if (outcome.kind === 'skipped') this.logger.debug(`security reports of pipeline ${pipelineId} not ingested: ${outcome.reason}`);
  }
}
