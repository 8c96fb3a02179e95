import { MigrationInterface, QueryRunner } from 'typeorm';

export class EventPositions1795362000000 implements MigrationInterface {
  name = 'EventPositions1795362000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "project_event_positions" (
                "project_id" integer NOT NULL,
                "last_seq" bigint NOT NULL DEFAULT '0',
                "deleted_max_seq" bigint NOT NULL DEFAULT '0',
                CONSTRAINT "PK_project_event_positions" PRIMARY KEY ("project_id")
            )
        `);
    await queryRunner.query(`
            ALTER TABLE "events"
            ADD "project_seq" bigint
        `);
    // Existing events are numbered in id order, per project.
    await queryRunner.query(`
            UPDATE "events" e SET "project_seq" = s.n
            FROM (SELECT id, row_number() OVER (PARTITION BY project_id ORDER BY id) AS n FROM "events" WHERE project_id IS NOT NULL) s
            WHERE e.id = s.id
        `);
    await queryRunner.query(`
            INSERT INTO "project_event_positions" ("project_id", "last_seq")
            SELECT project_id, max(project_seq) FROM "events" WHERE project_id IS NOT NULL GROUP BY project_id
        `);
    await queryRunner.query(`
            CREATE INDEX "events_project_id_project_seq_idx" ON "events" ("project_id", "project_seq")
        `);
    await queryRunner.query(`
            DROP INDEX "public"."events_project_id_id_covering_idx"
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE INDEX "events_project_id_id_covering_idx" ON "events" USING btree ("project_id", "id") INCLUDE ("created_at", "target_type", "target_id")
        `);
    await queryRunner.query(`
            DROP INDEX "public"."events_project_id_project_seq_idx"
        `);
    await queryRunner.query(`
            ALTER TABLE "events" DROP COLUMN "project_seq"
        `);
    await queryRunner.query(`
            DROP TABLE "project_event_positions"
        `);
  }
}
