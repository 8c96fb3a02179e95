import { MigrationInterface, QueryRunner } from 'typeorm';

/** Notes (and system notes), award emoji, project snippets with their files, group epics and labels. */
export class NotesSnippetsEpics1795371600000 implements MigrationInterface {
  name = 'NotesSnippetsEpics1795371600000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "notes" (
        "id" SERIAL NOT NULL,
        "noteable_type" character varying(20) NOT NULL,
        "noteable_id" integer NOT NULL,
        "project_id" integer,
        "group_id" integer,
        "author_id" integer NOT NULL,
        "body" text NOT NULL,
        "system" boolean NOT NULL DEFAULT false,
        "internal" boolean NOT NULL DEFAULT false,
        "system_note_action" character varying(30),
        "source_event_id" uuid,
        "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_notes" PRIMARY KEY ("id"),
        CONSTRAINT "FK_notes_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_notes_group" FOREIGN KEY ("group_id") REFERENCES "namespaces"("id") ON DELETE CASCADE
      )
    `);
    await queryRunner.query(`CREATE INDEX "notes_noteable_created_idx" ON "notes" ("noteable_type", "noteable_id", "created_at", "id")`);
    await queryRunner.query(`CREATE INDEX "notes_noteable_updated_idx" ON "notes" ("noteable_type", "noteable_id", "updated_at", "id")`);
    await queryRunner.query(`CREATE INDEX "notes_project_internal_idx" ON "notes" ("project_id") WHERE "internal"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "notes_source_event_action_key" ON "notes" ("source_event_id", "system_note_action") WHERE "source_event_id" IS NOT NULL`,
    );

    await queryRunner.query(`
      CREATE TABLE "award_emoji" (
        "id" SERIAL NOT NULL,
        "name" character varying(255) NOT NULL,
        "user_id" integer NOT NULL,
        "awardable_type" character varying(20) NOT NULL,
        "awardable_id" integer NOT NULL,
        "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_award_emoji" PRIMARY KEY ("id"),
        CONSTRAINT "FK_award_emoji_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE
      )
    `);
    await queryRunner.query(`CREATE UNIQUE INDEX "award_emoji_awardable_name_user_key" ON "award_emoji" ("awardable_type", "awardable_id", "name", "user_id")`);

    await queryRunner.query(`
      CREATE TABLE "snippets" (
        "id" SERIAL NOT NULL,
        "project_id" integer NOT NULL,
        "author_id" integer NOT NULL,
        "title" character varying(255) NOT NULL,
        "description" text,
        "visibility" character varying(10) NOT NULL DEFAULT 'private',
        "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_snippets" PRIMARY KEY ("id"),
        CONSTRAINT "FK_snippets_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE
      )
    `);
    await queryRunner.query(`CREATE INDEX "snippets_project_id_idx" ON "snippets" ("project_id", "id")`);
    await queryRunner.query(`
      CREATE TABLE "snippet_files" (
        "id" SERIAL NOT NULL,
        "snippet_id" integer NOT NULL,
        "position" integer NOT NULL,
        "path" character varying(255) NOT NULL,
        "content" text NOT NULL,
        CONSTRAINT "PK_snippet_files" PRIMARY KEY ("id"),
        CONSTRAINT "FK_snippet_files_snippet" FOREIGN KEY ("snippet_id") REFERENCES "snippets"("id") ON DELETE CASCADE
      )
    `);
    await queryRunner.query(`CREATE UNIQUE INDEX "snippet_files_snippet_path_key" ON "snippet_files" ("snippet_id", "path")`);

    await queryRunner.query(`
      CREATE TABLE "epics" (
        "id" SERIAL NOT NULL,
        "iid" integer NOT NULL,
        "group_id" integer NOT NULL,
        "author_id" integer NOT NULL,
        "title" character varying(255) NOT NULL,
        "description" text,
        "state" character varying(10) NOT NULL DEFAULT 'opened',
        "start_date" date,
        "due_date" date,
        "labels" text array NOT NULL DEFAULT '{}',
        "confidential" boolean NOT NULL DEFAULT false,
        "closed_at" TIMESTAMP(3) WITH TIME ZONE,
        "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_epics" PRIMARY KEY ("id"),
        CONSTRAINT "FK_epics_group" FOREIGN KEY ("group_id") REFERENCES "namespaces"("id") ON DELETE CASCADE
      )
    `);
    await queryRunner.query(`CREATE UNIQUE INDEX "epics_group_iid_key" ON "epics" ("group_id", "iid")`);
    // Epic ids start above every iid a group can reach, so that an iid given where the epic
    // notes routes expect an id never names an epic (404 instead of another epic's notes).
    await queryRunner.query(`ALTER SEQUENCE "epics_id_seq" RESTART WITH 1000000001`);

    await queryRunner.query(`
      CREATE TABLE "labels" (
        "id" SERIAL NOT NULL,
        "project_id" integer,
        "group_id" integer,
        "title" character varying(255) NOT NULL,
        "color" character varying(7) NOT NULL,
        "description" text,
        "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_labels" PRIMARY KEY ("id"),
        CONSTRAINT "FK_labels_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_labels_group" FOREIGN KEY ("group_id") REFERENCES "namespaces"("id") ON DELETE CASCADE
      )
    `);
    await queryRunner.query(`CREATE UNIQUE INDEX "labels_project_title_key" ON "labels" ("project_id", "title") WHERE "project_id" IS NOT NULL`);
    await queryRunner.query(`CREATE UNIQUE INDEX "labels_group_title_key" ON "labels" ("group_id", "title") WHERE "group_id" IS NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "labels"`);
    await queryRunner.query(`DROP TABLE "epics"`);
    await queryRunner.query(`DROP TABLE "snippet_files"`);
    await queryRunner.query(`DROP TABLE "snippets"`);
    await queryRunner.query(`DROP TABLE "award_emoji"`);
    await queryRunner.query(`DROP TABLE "notes"`);
  }
}
