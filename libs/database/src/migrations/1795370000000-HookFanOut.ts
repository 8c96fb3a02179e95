import { MigrationInterface, QueryRunner } from 'typeorm';

export class HookFanOut1795370000000 implements MigrationInterface {
  name = 'HookFanOut1795370000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "system_hook_events" (
                "id" uuid NOT NULL,
                "trigger" character varying(255) NOT NULL,
                "body" text NOT NULL,
                "occurred_at" TIMESTAMP WITH TIME ZONE,
                "chain_id" character varying(64) NOT NULL,
                "chain_depth" integer NOT NULL,
                "hook_ids" integer array NOT NULL,
                "job_id" character varying(80) NOT NULL,
                "fanned_out_at" TIMESTAMP WITH TIME ZONE,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_system_hook_events" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "system_hook_events_pending_idx" ON "system_hook_events" ("created_at") WHERE fanned_out_at IS NULL
        `);
    await queryRunner.query(`
            CREATE INDEX "system_hook_events_created_at_idx" ON "system_hook_events" ("created_at")
        `);
    await queryRunner.query(`
            CREATE TABLE "system_hook_retries" (
                "event_id" uuid NOT NULL,
                "hook_id" integer NOT NULL,
                "attempt" integer NOT NULL,
                "due_at" TIMESTAMP WITH TIME ZONE NOT NULL,
                CONSTRAINT "PK_system_hook_retries" PRIMARY KEY ("event_id", "hook_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "system_hook_retries_due_at_idx" ON "system_hook_retries" ("due_at")
        `);
    // Attempts of an event reference its body in system_hook_events (null here).
    await queryRunner.query(`
            ALTER TABLE "system_hook_deliveries" ALTER COLUMN "request_body" DROP NOT NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            UPDATE "system_hook_deliveries" d SET "request_body" = e."body" FROM "system_hook_events" e WHERE d."request_body" IS NULL AND e."id" = d."event_id"
        `);
    await queryRunner.query(`
            DELETE FROM "system_hook_deliveries" WHERE "request_body" IS NULL
        `);
    await queryRunner.query(`
            ALTER TABLE "system_hook_deliveries" ALTER COLUMN "request_body" SET NOT NULL
        `);
    await queryRunner.query(`DROP INDEX "public"."system_hook_retries_due_at_idx"`);
    await queryRunner.query(`DROP TABLE "system_hook_retries"`);
    await queryRunner.query(`DROP INDEX "public"."system_hook_events_created_at_idx"`);
    await queryRunner.query(`DROP INDEX "public"."system_hook_events_pending_idx"`);
    await queryRunner.query(`DROP TABLE "system_hook_events"`);
  }
}
