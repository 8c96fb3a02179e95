import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pipeline variables kept encrypted (AES-256-GCM with the settings key, bound to the column):
 * `encrypted_value` is written from now on, `value` stays only for rows written before.
 */
export class CiPipelineVariablesEncrypted1795610000000 implements MigrationInterface {
  name = 'CiPipelineVariablesEncrypted1795610000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "ci_pipeline_variables" ADD "encrypted_value" text`);
    await queryRunner.query(`ALTER TABLE "ci_pipeline_variables" ALTER COLUMN "value" DROP NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "ci_pipeline_variables" WHERE "value" IS NULL`);
    await queryRunner.query(`ALTER TABLE "ci_pipeline_variables" ALTER COLUMN "value" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "ci_pipeline_variables" DROP COLUMN "encrypted_value"`);
  }
}
