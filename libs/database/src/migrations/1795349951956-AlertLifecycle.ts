import { MigrationInterface, QueryRunner } from 'typeorm';

export class AlertLifecycle1795349951956 implements MigrationInterface {
  name = 'AlertLifecycle1795349951956';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "alert_engine_processed_events" (
                "event_id" uuid NOT NULL,
                "event_type" character varying(100) NOT NULL,
                "processed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_f55451a1cb3efd36adbceb8a0a9" PRIMARY KEY ("event_id")
            )
        `);
    await queryRunner.query(`
            ALTER TABLE "alerts"
            ADD "issue_id" integer
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "alerts_issue_id_key" ON "alerts" ("issue_id")
        `);
    await queryRunner.query(`
            ALTER TABLE "alerts"
            ADD CONSTRAINT "FK_64f1eeb5b2dd63c1e93070649b9" FOREIGN KEY ("issue_id") REFERENCES "issues"("id") ON DELETE
            SET NULL ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "alerts" DROP CONSTRAINT "FK_64f1eeb5b2dd63c1e93070649b9"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."alerts_issue_id_key"
        `);
    await queryRunner.query(`
            ALTER TABLE "alerts" DROP COLUMN "issue_id"
        `);
    await queryRunner.query(`
            DROP TABLE "alert_engine_processed_events"
        `);
  }
}
