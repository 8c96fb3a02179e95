import { MigrationInterface, QueryRunner } from 'typeorm';

/** Merge request approvals (PREMIUM): project configuration and rules, merge request rules, approvals. */
export class Approvals1795630000000 implements MigrationInterface {
  name = 'Approvals1795630000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "approval_project_settings" (
        "project_id" integer NOT NULL,
        "reset_approvals_on_push" boolean NOT NULL DEFAULT true,
        "disable_overriding_approvers_per_merge_request" boolean NOT NULL DEFAULT false,
        "merge_requests_author_approval" boolean NOT NULL DEFAULT false,
        "merge_requests_disable_committers_approval" boolean NOT NULL DEFAULT false,
        "require_password_to_approve" boolean NOT NULL DEFAULT false,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_approval_project_settings" PRIMARY KEY ("project_id"),
        CONSTRAINT "FK_approval_project_settings_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE
      )
    `);
    await queryRunner.query(`
      CREATE TABLE "approval_project_rules" (
        "id" SERIAL NOT NULL,
        "project_id" integer NOT NULL,
        "name" character varying(255) NOT NULL,
        "rule_type" character varying(20) NOT NULL,
        "report_type" character varying(30),
        "approvals_required" integer NOT NULL DEFAULT 0,
        "user_ids" integer array NOT NULL DEFAULT '{}',
        "group_ids" integer array NOT NULL DEFAULT '{}',
        "protected_branch_ids" integer array NOT NULL DEFAULT '{}',
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_approval_project_rules" PRIMARY KEY ("id"),
        CONSTRAINT "FK_approval_project_rules_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE
      )
    `);
    await queryRunner.query(`CREATE UNIQUE INDEX "approval_project_rules_project_name_key" ON "approval_project_rules" ("project_id", "name")`);
    // At most one any_approver rule per project.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "approval_project_rules_any_approver_key" ON "approval_project_rules" ("project_id") WHERE "rule_type" = 'any_approver'`,
    );
    await queryRunner.query(`
      CREATE TABLE "approval_merge_request_rules" (
        "id" SERIAL NOT NULL,
        "merge_request_id" integer NOT NULL,
        "name" character varying(255) NOT NULL,
        "rule_type" character varying(20) NOT NULL,
        "report_type" character varying(30),
        "approvals_required" integer NOT NULL DEFAULT 0,
        "user_ids" integer array NOT NULL DEFAULT '{}',
        "group_ids" integer array NOT NULL DEFAULT '{}',
        "source_rule_id" integer,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_approval_merge_request_rules" PRIMARY KEY ("id"),
        CONSTRAINT "FK_approval_merge_request_rules_mr" FOREIGN KEY ("merge_request_id") REFERENCES "merge_requests"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_approval_merge_request_rules_source" FOREIGN KEY ("source_rule_id") REFERENCES "approval_project_rules"("id") ON DELETE SET NULL
      )
    `);
    await queryRunner.query(`CREATE UNIQUE INDEX "approval_merge_request_rules_mr_name_key" ON "approval_merge_request_rules" ("merge_request_id", "name")`);
    await queryRunner.query(`CREATE INDEX "approval_merge_request_rules_source_idx" ON "approval_merge_request_rules" ("source_rule_id")`);
    await queryRunner.query(`
      CREATE TABLE "merge_request_approval_states" (
        "merge_request_id" integer NOT NULL,
        "rules_overwritten" boolean NOT NULL DEFAULT false,
        "approvals_before_merge" integer,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_merge_request_approval_states" PRIMARY KEY ("merge_request_id"),
        CONSTRAINT "FK_merge_request_approval_states_mr" FOREIGN KEY ("merge_request_id") REFERENCES "merge_requests"("id") ON DELETE CASCADE
      )
    `);
    await queryRunner.query(`
      CREATE TABLE "merge_request_approvals" (
        "merge_request_id" integer NOT NULL,
        "user_id" integer NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_merge_request_approvals" PRIMARY KEY ("merge_request_id", "user_id"),
        CONSTRAINT "FK_merge_request_approvals_mr" FOREIGN KEY ("merge_request_id") REFERENCES "merge_requests"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_merge_request_approvals_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE
      )
    `);
    await queryRunner.query(`CREATE INDEX "merge_request_approvals_user_idx" ON "merge_request_approvals" ("user_id")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "merge_request_approvals"`);
    await queryRunner.query(`DROP TABLE "merge_request_approval_states"`);
    await queryRunner.query(`DROP TABLE "approval_merge_request_rules"`);
    await queryRunner.query(`DROP TABLE "approval_project_rules"`);
    await queryRunner.query(`DROP TABLE "approval_project_settings"`);
  }
}
