import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Devise `lockable` columns of GitLab's `users`: `failed_attempts` counts wrong passwords since
 * the last successful sign-in; `locked_at` is set when they reach the maximum (10) and the
 * account stays locked for the unlock period (10 minutes) from then.
 */
export class UserLockout1795683000000 implements MigrationInterface {
  name = 'UserLockout1795683000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" ADD "failed_attempts" integer NOT NULL DEFAULT 0`);
    await queryRunner.query(`ALTER TABLE "users" ADD "locked_at" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "locked_at"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "failed_attempts"`);
  }
}
