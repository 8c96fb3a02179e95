import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contribution events by target: the projector removes a deleted comment's event (and a deleted
 * issue's events) and updates an edited comment's, by `(target_type, target_id)`.
 */
export class EventsTargetIndex1795600000000 implements MigrationInterface {
  name = 'EventsTargetIndex1795600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "events_target_type_target_id_idx" ON "events" ("target_type", "target_id")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "events_target_type_target_id_idx"`);
  }
}
