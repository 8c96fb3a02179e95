import { MigrationInterface, QueryRunner } from 'typeorm';

/** The project runners token kept encrypted (AES-256-GCM, the settings key), so that maintainers can read it again. */
export class ProjectRunnersToken1795370500000 implements MigrationInterface {
  name = 'ProjectRunnersToken1795370500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "projects" ADD "encrypted_runners_token" text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "projects" DROP COLUMN "encrypted_runners_token"`);
  }
}
