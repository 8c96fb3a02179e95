import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The reads of the delayed-job sweep (`StartScheduledJobsUseCase.sweep`), from PostgreSQL alone. */
@Injectable()
export class ScheduledJobsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Scheduled jobs whose `scheduled_at` passed, the earliest first. */
  async due(batchSize: number): Promise<number[]> {
    const rows = (await this.dataSource.query(
      `SELECT id FROM ci_jobs WHERE status = 'scheduled' AND scheduled_at <= now() ORDER BY scheduled_at, id LIMIT $1`,
      [batchSize],
    )) as { id: number }[];
    return rows.map((row) => row.id);
  }

  /** Scheduled jobs due within `horizonSeconds`, the earliest first. */
  async dueWithin(horizonSeconds: number, batchSize: number): Promise<{ id: number; scheduledAt: Date }[]> {
    const rows = (await this.dataSource.query(
      `SELECT id, scheduled_at FROM ci_jobs WHERE status = 'scheduled' AND scheduled_at > now() AND scheduled_at <= now() + make_interval(secs => $2) ORDER BY scheduled_at, id LIMIT $1`,
      [batchSize, horizonSeconds],
    )) as { id: number; scheduled_at: Date }[];
    return rows.map((row) => ({ id: row.id, scheduledAt: new Date(row.scheduled_at) }));
  }
}
