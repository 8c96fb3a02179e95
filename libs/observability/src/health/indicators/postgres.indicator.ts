import { Inject, Injectable } from '@nestjs/common';
import { migrationsApplied } from '@app/database';
import { DataSource } from 'typeorm';
import { ReadinessCheck } from '../readiness';

/** PostgreSQL answers a query through the application's data source. */
@Injectable()
export class PostgresIndicator implements ReadinessCheck {
  readonly name = 'postgres';

  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async check(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }
}

/** Every migration known to this build has been applied (a process must not serve an older schema). */
@Injectable()
export class MigrationsIndicator implements ReadinessCheck {
  readonly name = 'migrations';

  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async check(): Promise<void> {
    if (!(await migrationsApplied(this.dataSource))) throw new Error('pending migrations');
  }
}
