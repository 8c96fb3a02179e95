import { MigrationInterface, QueryRunner } from 'typeorm';

export class AlertStateEvents1795355077320 implements MigrationInterface {
  name = 'AlertStateEvents1795355077320';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "alert_state_events" (
                "id" SERIAL NOT NULL,
                "alert_id" integer NOT NULL,
                "user_id" integer,
                "state" character varying(12) NOT NULL,
                "previous_state" character varying(12),
                "source_event_id" uuid NOT NULL,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
                CONSTRAINT "PK_d8812971fe6cad53e946a287292" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "alert_state_events_source_event_key" ON "alert_state_events" ("source_event_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "alert_state_events_alert_idx" ON "alert_state_events" ("alert_id", "id")
        `);
    await queryRunner.query(`
            ALTER TABLE "alert_state_events"
            ADD CONSTRAINT "FK_dbe553e881bd7c2df36364fbe43" FOREIGN KEY ("alert_id") REFERENCES "alerts"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "alert_state_events" DROP CONSTRAINT "FK_dbe553e881bd7c2df36364fbe43"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."alert_state_events_alert_idx"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."alert_state_events_source_event_key"
        `);
    await queryRunner.query(`
            DROP TABLE "alert_state_events"
        `);
  }
}
