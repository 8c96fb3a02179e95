import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { JOB_QUEUE_CHANNEL } from './job-queue-notifier';

/** The write side of the runner wake-ups (`JobQueueNotifier` listens). */
@Injectable()
export class JobQueueRepository {
  /** Tells every replica (on commit of `tx`) that `count` jobs became pending. */
  async notifyPending(tx: EntityManager, count = 1): Promise<void> {
    await tx.query('SELECT pg_notify($1, $2)', [JOB_QUEUE_CHANNEL, String(count)]);
  }
}
