import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `ci_jobs.processed` (GitLab's column of that name): false from a job's end reported by its
 * runner until its pipeline's processing has seen it. A processing that never ran (the process
 * ended between the two) is found by it and run by the CI housekeeping.
 */
export class CiJobsProcessed1795660000000 implements MigrationInterface {
  name = 'CiJobsProcessed1795660000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "ci_jobs" ADD "processed" boolean NOT NULL DEFAULT true`);
    await queryRunner.query(`CREATE INDEX "IDX_ci_jobs_unprocessed" ON "ci_jobs" ("finished_at") WHERE processed = false`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_ci_jobs_unprocessed"`);
    await queryRunner.query(`ALTER TABLE "ci_jobs" DROP COLUMN "processed"`);
  }
}
