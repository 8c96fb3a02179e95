import { MigrationInterface, QueryRunner } from 'typeorm';

/** Delayed jobs: when a `scheduled` job is due (the record the delayed-job queue is rebuilt from). */
export class CiDelayedJobs1795617000000 implements MigrationInterface {
  name = 'CiDelayedJobs1795617000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "ci_jobs" ADD "scheduled_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`CREATE INDEX "IDX_ci_jobs_scheduled" ON "ci_jobs" ("scheduled_at") WHERE status = 'scheduled'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_ci_jobs_scheduled"`);
    await queryRunner.query(`ALTER TABLE "ci_jobs" DROP COLUMN "scheduled_at"`);
  }
}
