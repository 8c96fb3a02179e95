import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `project_import_states.attempts`: how many times the import job started (a run that ended
 * records `finished` or `failed`; one still `started` when its process ended is started again,
 * once: a third start fails it). `work_key`: the work directory of the run under way, so that
 * the next start (or the failure) removes what a dead run left on disk.
 */
export class ProjectImportAttempts1795675000000 implements MigrationInterface {
  name = 'ProjectImportAttempts1795675000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "project_import_states" ADD "attempts" integer NOT NULL DEFAULT 0`);
    await queryRunner.query(`ALTER TABLE "project_import_states" ADD "work_key" text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "project_import_states" DROP COLUMN "work_key"`);
    await queryRunner.query(`ALTER TABLE "project_import_states" DROP COLUMN "attempts"`);
  }
}
