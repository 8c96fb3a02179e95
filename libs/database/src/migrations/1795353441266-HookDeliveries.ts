import { MigrationInterface, QueryRunner } from 'typeorm';

export class HookDeliveries1795353441266 implements MigrationInterface {
  name = 'HookDeliveries1795353441266';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "system_hook_deliveries" (
                "id" BIGSERIAL NOT NULL,
                "hook_id" integer NOT NULL,
                "event_id" uuid,
                "trigger" character varying(255) NOT NULL,
                "url" character varying(2048) NOT NULL,
                "request_headers" jsonb NOT NULL,
                "request_body" text NOT NULL,
                "response_status" integer,
                "response_headers" jsonb,
                "response_body" text,
                "status" character varying(20) NOT NULL,
                "error" text,
                "duration_ms" integer NOT NULL DEFAULT '0',
                "idempotency_key" uuid NOT NULL,
                "webhook_uuid" uuid,
                "attempt" integer NOT NULL DEFAULT '1',
                "event_occurred_at" TIMESTAMP WITH TIME ZONE,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_ff649670646aa1ecb8f81bbd985" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`CREATE INDEX "system_hook_deliveries_created_at_idx" ON "system_hook_deliveries" ("created_at")`);
    await queryRunner.query(`CREATE INDEX "system_hook_deliveries_hook_id_idx" ON "system_hook_deliveries" ("hook_id", "id")`);
    await queryRunner.query(`ALTER TABLE "system_hooks" ADD "alert_status" character varying(32) NOT NULL DEFAULT 'executable'`);
    await queryRunner.query(`ALTER TABLE "system_hooks" ADD "disabled_until" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "system_hooks" ADD "recent_failures" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "system_hooks" ADD "backoff_count" integer NOT NULL DEFAULT '0'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "system_hooks" DROP COLUMN "backoff_count"`);
    await queryRunner.query(`ALTER TABLE "system_hooks" DROP COLUMN "recent_failures"`);
    await queryRunner.query(`ALTER TABLE "system_hooks" DROP COLUMN "disabled_until"`);
    await queryRunner.query(`ALTER TABLE "system_hooks" DROP COLUMN "alert_status"`);
    await queryRunner.query(`DROP INDEX "public"."system_hook_deliveries_hook_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."system_hook_deliveries_created_at_idx"`);
    await queryRunner.query(`DROP TABLE "system_hook_deliveries"`);
  }
}
