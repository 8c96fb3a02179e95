import { MigrationInterface, QueryRunner } from 'typeorm';

/** Project export and import: the status records of both and the failed relations of imports. */
export class ProjectTransfer1795650000000 implements MigrationInterface {
  name = 'ProjectTransfer1795650000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "project_exports" (
        "project_id" integer NOT NULL,
        "status" character varying(30) NOT NULL,
        "generation" integer NOT NULL DEFAULT 0,
        "user_id" integer NOT NULL,
        "description" text,
        "upload_url" text,
        "upload_method" character varying(4),
        "file_key" text,
        "file_name" character varying(255),
        "file_size" bigint,
        "expires_at" TIMESTAMP WITH TIME ZONE,
        "error" text,
        "correlation_id" character varying(128),
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_project_exports" PRIMARY KEY ("project_id"),
        CONSTRAINT "FK_project_exports_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE
      )
    `);
    await queryRunner.query(
      `CREATE INDEX "project_exports_pending_idx" ON "project_exports" ("updated_at") WHERE "status" IN ('queued', 'started', 'regeneration_in_progress')`,
    );
    await queryRunner.query(`CREATE INDEX "project_exports_expires_idx" ON "project_exports" ("expires_at") WHERE "file_key" IS NOT NULL`);
    await queryRunner.query(`
      CREATE TABLE "project_import_states" (
        "project_id" integer NOT NULL,
        "status" character varying(20) NOT NULL,
        "import_type" character varying(40) NOT NULL DEFAULT 'gitlab_project',
        "user_id" integer NOT NULL,
        "correlation_id" character varying(128),
        "error" text,
        "file_key" text,
        "source_url" text,
        "override_params" jsonb NOT NULL DEFAULT '{}',
        "replaces_project_id" integer,
        "final_path" character varying(255),
        "final_name" character varying(255),
        "skipped_relations" jsonb NOT NULL DEFAULT '{}',
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_project_import_states" PRIMARY KEY ("project_id"),
        CONSTRAINT "FK_project_import_states_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE
      )
    `);
    await queryRunner.query(
      `CREATE INDEX "project_import_states_pending_idx" ON "project_import_states" ("updated_at") WHERE "status" IN ('scheduled', 'started')`,
    );
    await queryRunner.query(`
      CREATE TABLE "project_import_failures" (
        "id" SERIAL NOT NULL,
        "project_id" integer NOT NULL,
        "relation_name" character varying(255) NOT NULL,
        "line_number" integer,
        "exception_class" character varying(255) NOT NULL,
        "exception_message" text NOT NULL,
        "source" character varying(255) NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_project_import_failures" PRIMARY KEY ("id"),
        CONSTRAINT "FK_project_import_failures_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE
      )
    `);
    await queryRunner.query(`CREATE INDEX "project_import_failures_project_idx" ON "project_import_failures" ("project_id", "id")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "project_import_failures"`);
    await queryRunner.query(`DROP TABLE "project_import_states"`);
    await queryRunner.query(`DROP TABLE "project_exports"`);
  }
}
