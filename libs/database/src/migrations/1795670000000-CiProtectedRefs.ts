import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `ci_pipelines.protected` and `ci_jobs.protected` (GitLab's columns of that name): whether the
 * pipeline's ref was protected when it was created. Runners with `access_level: ref_protected`
 * take only protected jobs; `CI_COMMIT_REF_PROTECTED` and the payload's `git_info.protected`
 * say it. Existing rows stay unprotected, as they were run.
 */
export class CiProtectedRefs1795670000000 implements MigrationInterface {
  name = 'CiProtectedRefs1795670000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "ci_pipelines" ADD "protected" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "ci_jobs" ADD "protected" boolean NOT NULL DEFAULT false`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "ci_jobs" DROP COLUMN "protected"`);
    await queryRunner.query(`ALTER TABLE "ci_pipelines" DROP COLUMN "protected"`);
  }
}
