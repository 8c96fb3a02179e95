import { MigrationInterface, QueryRunner } from 'typeorm';

/** A new discussion (thread) id: 40 hex characters, as GitLab's SHA1 discussion ids. */
const NEW_DISCUSSION_ID = `substr(md5(random()::text || clock_timestamp()::text) || md5(clock_timestamp()::text || random()::text), 1, 40)`;

/**
 * Discussions: every note belongs to one (`discussion_id`; an individual note is a discussion of
 * its own, existing notes each get their own), threaded notes have `type` `DiscussionNote`, and
 * merge request threads are resolved (`resolved_at`, `resolved_by_id` on their notes).
 */
export class NoteDiscussions1795600100000 implements MigrationInterface {
  name = 'NoteDiscussions1795600100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notes" ADD "discussion_id" character varying(40) NOT NULL DEFAULT ${NEW_DISCUSSION_ID}`);
    await queryRunner.query(`ALTER TABLE "notes" ADD "type" character varying(30)`);
    await queryRunner.query(`ALTER TABLE "notes" ADD "resolved_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "notes" ADD "resolved_by_id" integer`);
    await queryRunner.query(`CREATE INDEX "notes_discussion_idx" ON "notes" ("discussion_id", "id")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "notes_discussion_idx"`);
    await queryRunner.query(`ALTER TABLE "notes" DROP COLUMN "resolved_by_id"`);
    await queryRunner.query(`ALTER TABLE "notes" DROP COLUMN "resolved_at"`);
    await queryRunner.query(`ALTER TABLE "notes" DROP COLUMN "type"`);
    await queryRunner.query(`ALTER TABLE "notes" DROP COLUMN "discussion_id"`);
  }
}
