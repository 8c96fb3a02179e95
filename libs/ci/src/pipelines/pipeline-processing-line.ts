import { Injectable, Logger } from '@nestjs/common';
import type { CiEventScope } from '../events/ci.events';
import { PipelineProcessor } from './pipeline-processor';
import { PipelinesRepository } from './pipelines.repository';

/** How long a job's end waits for its pipeline's processing before the housekeeping takes it for lost. */
export const UNPROCESSED_GRACE_SECONDS = 30;

interface Line {
  scope: CiEventScope;
  /** The requests the next processing answers. */
  waiting: Array<() => void>;
}

/**
 * Processes a pipeline after the ends its runners report, outside the reports' own transactions
 * (GitLab's `BuildFinishedWorker` and deduplicated `PipelineProcessWorker`): the ends of several
 * jobs of one pipeline that arrive while it is being processed are all seen by its next
 * processing, one for all of them, instead of each report locking the pipeline and processing it
 * again. `request` resolves once a processing that began after the call has ended, so that a
 * runner's `PUT /jobs/:id` is still answered with the pipeline moved on (its next jobs pending).
 *
 * Durable: an end is recorded with `processed = false` in its report's transaction and the
 * processing sets it true; `sweep` (CI housekeeping, every minute) processes the pipelines whose
 * processing never ran, a process that ended in between for instance.
 */
@Injectable()
export class PipelineProcessingLine {
  private readonly logger = new Logger(PipelineProcessingLine.name);
  private readonly lines = new Map<number, Line>();

  constructor(
    private readonly pipelines: PipelinesRepository,
    private readonly processor: PipelineProcessor,
  ) {}

  request(pipelineId: number, scope: CiEventScope): Promise<void> {
    return new Promise((resolve) => {
      const line = this.lines.get(pipelineId);
      if (line) {
        line.waiting.push(resolve);
        return;
      }
      const created: Line = { scope, waiting: [resolve] };
      this.lines.set(pipelineId, created);
      void this.drain(pipelineId, created);
    });
  }

  /** Processes the pipeline until no request waits (each round answers the requests made before it began). */
  private async drain(pipelineId: number, line: Line): Promise<void> {
    while (line.waiting.length > 0) {
      const answered = line.waiting.splice(0);
      await this.processOnce(pipelineId, line.scope);
      for (const resolve of answered) resolve();
    }
    this.lines.delete(pipelineId);
  }

  /** One processing, tried twice (a deadlock, a lost connection); left to the sweep after that. */
  private async processOnce(pipelineId: number, scope: CiEventScope): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.pipelines.transaction((tx) => this.processor.process(tx, pipelineId, scope, null));
        return;
      } catch (error) {
        if (attempt >= 2) {
          this.logger.warn({ err: error, pipelineId }, 'pipeline processing failed; the CI housekeeping processes it again');
          return;
        }
      }
    }
  }

  /** Processes the pipelines of job ends that no processing saw for `UNPROCESSED_GRACE_SECONDS`; returns how many. */
  async sweep(batchSize: number): Promise<{ processed: number }> {
    const pipelines = await this.pipelines.unprocessed(UNPROCESSED_GRACE_SECONDS, batchSize);
    for (const { pipelineId, scope } of pipelines) await this.request(pipelineId, scope);
    return { processed: pipelines.length };
  }
}
