import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import type { CiRunnerEntity } from '../entities/ci-runner.entity';
import { JobQueueNotifier } from '../queues/job-queue-notifier';
import { RequestJobUseCase } from './request-job.use-case';

/** What a long poll ends with: a job's payload, or none with the queue version the runner saw. */
export type LongPollOutcome = { result: 'job'; payload: Record<string, unknown> } | { result: 'no-job'; lastUpdate: string };

/**
 * The long poll of `POST /jobs/request`: asks for a job, and while there is none waits (up to
 * `CI_LONG_POLL_SECONDS`) for the `JobQueueNotifier` to wake it for new jobs. A runner whose
 * `last_update` is the current queue version saw the queue as it is and goes straight to waiting;
 * a paused runner gets no job. A woken runner that finds nothing it may run hands its wake-up on
 * to a runner that has not asked in this round (see `JobQueueNotifier`).
 */
@Injectable()
export class JobLongPoll {
  constructor(
    private readonly config: AppConfig,
    private readonly notifier: JobQueueNotifier,
    private readonly requestJob: RequestJobUseCase,
  ) {}

  async poll(runner: CiRunnerEntity, lastUpdate: unknown, signal: AbortSignal): Promise<LongPollOutcome> {
    if (runner.paused) return { result: 'no-job', lastUpdate: this.notifier.version };
    const deadline = Date.now() + this.config.ci.longPollSeconds * 1000;
    // A runner whose last update is the current one saw the queue as it is: wait before asking.
    let check = lastUpdate !== this.notifier.version;
    // Whether this request holds a wake-up (it was woken for new jobs and has not used it yet).
    let woken = false;
    let triedRound = -1;
    for (;;) {
      if (check) {
        const version = this.notifier.version;
        const round = this.notifier.round;
        let payload: Record<string, unknown> | null;
        try {
          payload = signal.aborted ? null : await this.requestJob.execute(runner);
        } catch (error) {
          if (woken) this.notifier.handOn();
          throw error;
        }
        if (payload) return { result: 'job', payload };
        if (version !== this.notifier.version) continue;
        // Nothing for this runner: the wake-up goes to a runner that has not asked in this round.
        if (woken) this.notifier.handOn();
        woken = false;
        triedRound = round;
      }
      const left = deadline - Date.now();
      if (left <= 0 || signal.aborted) break;
      check = woken = await this.notifier.wait(left, signal, triedRound);
      if (!check) break;
    }
    return { result: 'no-job', lastUpdate: this.notifier.version };
  }
}
