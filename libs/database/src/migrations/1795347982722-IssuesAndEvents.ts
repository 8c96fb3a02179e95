import { MigrationInterface, QueryRunner } from 'typeorm';

export class IssuesAndEvents1795347982722 implements MigrationInterface {
  name = 'IssuesAndEvents1795347982722';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "events" (
                "id" BIGSERIAL NOT NULL,
                "source_event_id" uuid NOT NULL,
                "project_id" integer,
                "group_id" integer,
                "author_id" integer NOT NULL,
                "action" character varying(30) NOT NULL,
                "target_type" character varying(30),
                "target_id" integer,
                "target_iid" integer,
                "target_title" character varying(255),
                "note" jsonb,
                "push_data" jsonb,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
                CONSTRAINT "PK_40731c7151fe4be3116e45ddf73" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "IDX_2442e7fb6c64dbe1bbef230dcf" ON "events" ("source_event_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "events_created_at_idx" ON "events" ("created_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "events_author_id_id_idx" ON "events" ("author_id", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "events_project_id_id_idx" ON "events" ("project_id", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "projected_events" (
                "event_id" uuid NOT NULL,
                "type" character varying(255) NOT NULL,
                "projected_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_fff6a0bcd4964cf3f9c78f089b3" PRIMARY KEY ("event_id")
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "resource_milestone_events" (
                "id" SERIAL NOT NULL,
                "source_event_id" uuid NOT NULL,
                "user_id" integer,
                "issue_id" integer,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
                "merge_request_id" integer,
                "milestone_id" integer NOT NULL,
                "milestone_snapshot" jsonb,
                "action" character varying(10) NOT NULL,
                CONSTRAINT "PK_532daed8e51de73062d85887a6a" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "resource_milestone_events_mr_idx" ON "resource_milestone_events" ("merge_request_id", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "resource_milestone_events_issue_idx" ON "resource_milestone_events" ("issue_id", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "resource_state_events" (
                "id" SERIAL NOT NULL,
                "source_event_id" uuid NOT NULL,
                "user_id" integer,
                "issue_id" integer,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
                "merge_request_id" integer,
                "state" character varying(20) NOT NULL,
                "source_commit" character varying(64),
                "source_merge_request_id" integer,
                CONSTRAINT "PK_7b5c9d1a6a2cab0f82a7e53004a" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "resource_state_events_mr_idx" ON "resource_state_events" ("merge_request_id", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "resource_state_events_issue_idx" ON "resource_state_events" ("issue_id", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "resource_iteration_events" (
                "id" SERIAL NOT NULL,
                "source_event_id" uuid NOT NULL,
                "user_id" integer,
                "issue_id" integer,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
                "iteration_id" integer NOT NULL,
                "iteration_snapshot" jsonb,
                "action" character varying(10) NOT NULL,
                CONSTRAINT "PK_61ae580eb062def8fd6df5c91d8" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "resource_iteration_events_issue_idx" ON "resource_iteration_events" ("issue_id", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "resource_weight_events" (
                "id" SERIAL NOT NULL,
                "source_event_id" uuid NOT NULL,
                "user_id" integer,
                "issue_id" integer,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
                "weight" integer,
                CONSTRAINT "PK_806f9feaffb04104f93971a25ed" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "resource_weight_events_issue_idx" ON "resource_weight_events" ("issue_id", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "internal_ids" (
                "scope_type" character varying(10) NOT NULL,
                "scope_id" integer NOT NULL,
                "usage" character varying(30) NOT NULL,
                "last_value" integer NOT NULL,
                CONSTRAINT "PK_ad7de9f80f9743da47ad348dfef" PRIMARY KEY ("scope_type", "scope_id", "usage")
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "issues" (
                "id" SERIAL NOT NULL,
                "iid" integer NOT NULL,
                "project_id" integer NOT NULL,
                "title" character varying(255) NOT NULL,
                "description" text,
                "state" character varying(10) NOT NULL DEFAULT 'opened',
                "author_id" integer NOT NULL,
                "assignee_ids" integer array NOT NULL DEFAULT '{}',
                "labels" text array NOT NULL DEFAULT '{}',
                "milestone_id" integer,
                "iteration_id" integer,
                "weight" integer,
                "issue_type" character varying(20) NOT NULL DEFAULT 'issue',
                "severity" character varying(10) NOT NULL DEFAULT 'unknown',
                "confidential" boolean NOT NULL DEFAULT false,
                "closed_at" TIMESTAMP WITH TIME ZONE,
                "closed_by_id" integer,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_9d8ecbbeff46229c700f0449257" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "IDX_b7339f9dd3d78e082725d5aded" ON "issues" ("author_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "issues_project_iid_key" ON "issues" ("project_id", "iid")
        `);
    await queryRunner.query(`
            CREATE TABLE "iterations" (
                "id" SERIAL NOT NULL,
                "iid" integer NOT NULL,
                "group_id" integer NOT NULL,
                "title" character varying(255),
                "description" text,
                "start_date" date NOT NULL,
                "due_date" date NOT NULL,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_d62c93eaa6fc8129cb942633d12" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "iterations_group_iid_key" ON "iterations" ("group_id", "iid")
        `);
    await queryRunner.query(`
            CREATE TABLE "merge_requests" (
                "id" SERIAL NOT NULL,
                "iid" integer NOT NULL,
                "project_id" integer NOT NULL,
                "title" character varying(255) NOT NULL,
                "description" text,
                "state" character varying(10) NOT NULL DEFAULT 'opened',
                "source_branch" character varying(255) NOT NULL,
                "target_branch" character varying(255) NOT NULL,
                "author_id" integer NOT NULL,
                "assignee_ids" integer array NOT NULL DEFAULT '{}',
                "labels" text array NOT NULL DEFAULT '{}',
                "milestone_id" integer,
                "closed_at" TIMESTAMP WITH TIME ZONE,
                "closed_by_id" integer,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_b6c55799f59a81ea08fb03dedd1" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "IDX_2334b09550c5d83c63f8b64299" ON "merge_requests" ("author_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "merge_requests_project_iid_key" ON "merge_requests" ("project_id", "iid")
        `);
    await queryRunner.query(`
            CREATE TABLE "milestones" (
                "id" SERIAL NOT NULL,
                "iid" integer NOT NULL,
                "project_id" integer,
                "group_id" integer,
                "title" character varying(255) NOT NULL,
                "description" text,
                "state" character varying(10) NOT NULL DEFAULT 'active',
                "due_date" date,
                "start_date" date,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_0bdbfe399c777a6a8520ff902d9" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "milestones_group_iid_key" ON "milestones" ("group_id", "iid")
            WHERE group_id IS NOT NULL
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "milestones_project_iid_key" ON "milestones" ("project_id", "iid")
            WHERE project_id IS NOT NULL
        `);
    await queryRunner.query(`
            ALTER TABLE "issues"
            ADD CONSTRAINT "FK_11f35e8296e10c229e7b68c68d4" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "merge_requests"
            ADD CONSTRAINT "FK_d87141b378686f82fc9eca6d39a" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "milestones"
            ADD CONSTRAINT "FK_2204463ea4c5c1872e1fb2b8ffb" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "milestones" DROP CONSTRAINT "FK_2204463ea4c5c1872e1fb2b8ffb"
        `);
    await queryRunner.query(`
            ALTER TABLE "merge_requests" DROP CONSTRAINT "FK_d87141b378686f82fc9eca6d39a"
        `);
    await queryRunner.query(`
            ALTER TABLE "issues" DROP CONSTRAINT "FK_11f35e8296e10c229e7b68c68d4"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."milestones_project_iid_key"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."milestones_group_iid_key"
        `);
    await queryRunner.query(`
            DROP TABLE "milestones"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."merge_requests_project_iid_key"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_2334b09550c5d83c63f8b64299"
        `);
    await queryRunner.query(`
            DROP TABLE "merge_requests"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."iterations_group_iid_key"
        `);
    await queryRunner.query(`
            DROP TABLE "iterations"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."issues_project_iid_key"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_b7339f9dd3d78e082725d5aded"
        `);
    await queryRunner.query(`
            DROP TABLE "issues"
        `);
    await queryRunner.query(`
            DROP TABLE "internal_ids"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."resource_weight_events_issue_idx"
        `);
    await queryRunner.query(`
            DROP TABLE "resource_weight_events"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."resource_iteration_events_issue_idx"
        `);
    await queryRunner.query(`
            DROP TABLE "resource_iteration_events"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."resource_state_events_issue_idx"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."resource_state_events_mr_idx"
        `);
    await queryRunner.query(`
            DROP TABLE "resource_state_events"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."resource_milestone_events_issue_idx"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."resource_milestone_events_mr_idx"
        `);
    await queryRunner.query(`
            DROP TABLE "resource_milestone_events"
        `);
    await queryRunner.query(`
            DROP TABLE "projected_events"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."events_project_id_id_idx"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."events_author_id_id_idx"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."events_created_at_idx"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_2442e7fb6c64dbe1bbef230dcf"
        `);
    await queryRunner.query(`
            DROP TABLE "events"
        `);
  }
}
