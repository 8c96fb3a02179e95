import { MigrationInterface, QueryRunner } from 'typeorm';

/** Resends of system hook deliveries recorded in PostgreSQL, so that Redis losing their jobs loses none. */
export class HookResends1795580000000 implements MigrationInterface {
  name = 'HookResends1795580000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "system_hook_resends" (
                "id" uuid NOT NULL,
                "hook_id" integer NOT NULL,
                "delivery_id" bigint NOT NULL,
                "request_id" text,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_system_hook_resends" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`CREATE INDEX "system_hook_resends_created_at_idx" ON "system_hook_resends" ("created_at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."system_hook_resends_created_at_idx"`);
    await queryRunner.query(`DROP TABLE "system_hook_resends"`);
  }
}
