import { MigrationInterface, QueryRunner } from 'typeorm';

export class EventsProjectListIndex1795350203033 implements MigrationInterface {
  name = 'EventsProjectListIndex1795350203033';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."events_project_id_id_idx"
        `);
    // Hand-written (INCLUDE): the project event list counts and skips pages with index-only scans.
    await queryRunner.query(`
            CREATE INDEX "events_project_id_id_covering_idx" ON "events" USING btree ("project_id", "id") INCLUDE ("created_at", "target_type", "target_id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."events_project_id_id_covering_idx"
        `);
    await queryRunner.query(`
            CREATE INDEX "events_project_id_id_idx" ON "events" USING btree ("project_id", "id")
        `);
  }
}
