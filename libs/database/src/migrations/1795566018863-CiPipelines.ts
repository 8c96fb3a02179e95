import { MigrationInterface, QueryRunner } from 'typeorm';

/** CI: pipelines (per-project iids), their variables and stages, jobs and bridges, runners, job artifacts and traces. */
export class CiPipelines1795566018863 implements MigrationInterface {
  name = 'CiPipelines1795566018863';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "ci_pipelines" ( "id" SERIAL NOT NULL, "iid" integer NOT NULL, "project_id" integer NOT NULL, "status" character varying(30) NOT NULL, "source" character varying(40) NOT NULL, "ref" character varying(255) NOT NULL, "sha" character varying(64) NOT NULL, "before_sha" character varying(64) NOT NULL, "tag" boolean NOT NULL DEFAULT false, "yaml_errors" text, "user_id" integer, "parent_pipeline_id" integer, "source_job_id" integer, "trigger_event_id" uuid, "predefined_variables" jsonb NOT NULL DEFAULT '{}', "failure_reason" character varying(60), "coverage" numeric(7, 2), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "started_at" TIMESTAMP WITH TIME ZONE, "finished_at" TIMESTAMP WITH TIME ZONE, "committed_at" TIMESTAMP WITH TIME ZONE, "duration" integer, "queued_duration" integer, CONSTRAINT "PK_5c35a981015bfc33c717037569a" PRIMARY KEY ("id") )`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_0418b3bb8edf75ed74f858517d" ON "ci_pipelines" ("user_id")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_ci_pipelines_trigger_event" ON "ci_pipelines" ("trigger_event_id") WHERE trigger_event_id IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_934d696641a656fd01ef6ca529" ON "ci_pipelines" ("parent_pipeline_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_6a0f6104218e183526464ab982" ON "ci_pipelines" ("source_job_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_ae3aa2ec0c76b1e36e900523a1" ON "ci_pipelines" ("project_id", "status")`);
    await queryRunner.query(`CREATE INDEX "IDX_31d71cfe1d357f61aad46816bb" ON "ci_pipelines" ("project_id", "sha")`);
    await queryRunner.query(`CREATE INDEX "IDX_f324974eb104461a1548ed8df1" ON "ci_pipelines" ("project_id", "ref")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_4a796a100fc8ad9d1ea8eca31b" ON "ci_pipelines" ("project_id", "iid")`);
    await queryRunner.query(
      `CREATE TABLE "ci_jobs" ( "id" SERIAL NOT NULL, "project_id" integer NOT NULL, "pipeline_id" integer NOT NULL, "type" character varying(10) NOT NULL, "name" character varying(255) NOT NULL, "stage" character varying(255) NOT NULL, "stage_idx" integer NOT NULL, "status" character varying(30) NOT NULL, "when" character varying(20) NOT NULL, "allow_failure" boolean NOT NULL DEFAULT false, "needs" jsonb, "options" jsonb NOT NULL DEFAULT '{}', "yaml_variables" jsonb NOT NULL DEFAULT '{}', "tag_list" text array NOT NULL DEFAULT '{}', "ref" character varying(255) NOT NULL, "sha" character varying(64) NOT NULL, "tag" boolean NOT NULL DEFAULT false, "retried" boolean NOT NULL DEFAULT false, "retry_count" integer NOT NULL DEFAULT '0', "failure_reason" character varying(60), "exit_code" integer, "coverage" numeric(7, 2), "runner_id" integer, "token_digest" character varying(64), "user_id" integer, "timeout" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "queued_at" TIMESTAMP WITH TIME ZONE, "started_at" TIMESTAMP WITH TIME ZONE, "finished_at" TIMESTAMP WITH TIME ZONE, "last_contact_at" TIMESTAMP WITH TIME ZONE, "artifacts_expire_at" TIMESTAMP WITH TIME ZONE, "erased_at" TIMESTAMP WITH TIME ZONE, "erased_by_id" integer, CONSTRAINT "PK_785aa98eac942e5aca78b1a1cc5" PRIMARY KEY ("id") )`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_ce876119722407565168ee110e" ON "ci_jobs" ("runner_id")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_1ad34823b5b70eb3bb45d15374" ON "ci_jobs" ("token_digest") WHERE token_digest IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_ci_jobs_running" ON "ci_jobs" ("updated_at") WHERE status = 'running'`);
    await queryRunner.query(`CREATE INDEX "IDX_ci_jobs_pending_queue" ON "ci_jobs" ("id") WHERE status = 'pending' AND type = 'build'`);
    await queryRunner.query(`CREATE INDEX "IDX_d08c1fca5aa4e33a95bf4e5106" ON "ci_jobs" ("pipeline_id", "stage_idx")`);
    await queryRunner.query(`CREATE INDEX "IDX_1530d71d5ca2f89817af9dfa6c" ON "ci_jobs" ("project_id", "id")`);
    await queryRunner.query(
      `CREATE TABLE "ci_job_artifacts" ( "id" SERIAL NOT NULL, "job_id" integer NOT NULL, "project_id" integer NOT NULL, "file_type" character varying(40) NOT NULL, "file_format" character varying(10) NOT NULL, "filename" character varying(255) NOT NULL, "size" bigint NOT NULL, "file_sha256" character varying(64), "storage_key" character varying(512) NOT NULL, "expire_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_e5daaebe0d381b9072e55b1aaac" PRIMARY KEY ("id") )`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_46bada321fde3b903f4c8c2e58" ON "ci_job_artifacts" ("project_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_ci_job_artifacts_expiring" ON "ci_job_artifacts" ("expire_at") WHERE expire_at IS NOT NULL`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_9f65667b2d9356f03841b4a856" ON "ci_job_artifacts" ("job_id", "file_type")`);
    await queryRunner.query(
      `CREATE TABLE "ci_job_traces" ( "job_id" integer NOT NULL, "storage_key" character varying(512) NOT NULL, "size" bigint NOT NULL DEFAULT '0', "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_de8a327c1b3b8f39a3d48e019d9" PRIMARY KEY ("job_id") )`,
    );
    await queryRunner.query(
      `CREATE TABLE "ci_pipeline_variables" ( "id" SERIAL NOT NULL, "pipeline_id" integer NOT NULL, "key" character varying(255) NOT NULL, "value" text NOT NULL, "variable_type" character varying(10) NOT NULL DEFAULT 'env_var', CONSTRAINT "PK_ecad49c6c0d94befbb1f46ff71d" PRIMARY KEY ("id") )`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_9ac7281e8acdc42b99b5a79b25" ON "ci_pipeline_variables" ("pipeline_id", "key")`);
    await queryRunner.query(
      `CREATE TABLE "ci_runners" ( "id" SERIAL NOT NULL, "token_digest" character varying(64) NOT NULL, "token_prefix" character varying(16) NOT NULL, "runner_type" character varying(20) NOT NULL, "group_id" integer, "description" character varying(1024) NOT NULL DEFAULT '', "maintenance_note" text, "paused" boolean NOT NULL DEFAULT false, "locked" boolean NOT NULL DEFAULT false, "run_untagged" boolean NOT NULL DEFAULT true, "tag_list" text array NOT NULL DEFAULT '{}', "access_level" character varying(20) NOT NULL DEFAULT 'not_protected', "maximum_timeout" integer, "contacted_at" TIMESTAMP WITH TIME ZONE, "info" jsonb NOT NULL DEFAULT '{}', "ip_address" character varying(64), "creator_id" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_4789882b3fb53be1dd95d50c757" UNIQUE ("token_digest"), CONSTRAINT "PK_3480c67dd4385da4e531b43b072" PRIMARY KEY ("id") )`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_1256f2b23bcba173b5b1798c8a" ON "ci_runners" ("group_id")`);
    await queryRunner.query(
      `CREATE TABLE "ci_runner_projects" ( "id" SERIAL NOT NULL, "runner_id" integer NOT NULL, "project_id" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6a057a356cd8df97d88572aa924" PRIMARY KEY ("id") )`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_86581eddf8e8c1447bffc2a4ad" ON "ci_runner_projects" ("project_id")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_9309c54b4bf5c774fba7fbc6f6" ON "ci_runner_projects" ("runner_id", "project_id")`);
    await queryRunner.query(
      `CREATE TABLE "ci_stages" ( "id" SERIAL NOT NULL, "pipeline_id" integer NOT NULL, "name" character varying(255) NOT NULL, "position" integer NOT NULL, "status" character varying(30) NOT NULL, CONSTRAINT "PK_d023a1d7087ea470ef17d2f28ea" PRIMARY KEY ("id") )`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_bd2155fc6a76186104ad1efa15" ON "ci_stages" ("pipeline_id", "name")`);
    await queryRunner.query(
      `ALTER TABLE "ci_pipelines" ADD CONSTRAINT "FK_37ee24c7de8f8e095dee40c6dd5" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "ci_pipelines" ADD CONSTRAINT "FK_0418b3bb8edf75ed74f858517d4" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "ci_jobs" ADD CONSTRAINT "FK_b7e549313c48f5bfaf0a56234a3" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "ci_jobs" ADD CONSTRAINT "FK_1295b82923084344602525aa970" FOREIGN KEY ("pipeline_id") REFERENCES "ci_pipelines"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "ci_job_artifacts" ADD CONSTRAINT "FK_1083d7f23fb9d2162c950d5d8e7" FOREIGN KEY ("job_id") REFERENCES "ci_jobs"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "ci_job_traces" ADD CONSTRAINT "FK_de8a327c1b3b8f39a3d48e019d9" FOREIGN KEY ("job_id") REFERENCES "ci_jobs"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "ci_pipeline_variables" ADD CONSTRAINT "FK_20bed203ab0def5be54ec3da7b1" FOREIGN KEY ("pipeline_id") REFERENCES "ci_pipelines"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "ci_runners" ADD CONSTRAINT "FK_1256f2b23bcba173b5b1798c8a7" FOREIGN KEY ("group_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "ci_runner_projects" ADD CONSTRAINT "FK_247453c311a38b30ebbf7e5d427" FOREIGN KEY ("runner_id") REFERENCES "ci_runners"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "ci_runner_projects" ADD CONSTRAINT "FK_86581eddf8e8c1447bffc2a4ad2" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "ci_stages" ADD CONSTRAINT "FK_3c4338211e9519033ab7a903198" FOREIGN KEY ("pipeline_id") REFERENCES "ci_pipelines"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "ci_stages" DROP CONSTRAINT "FK_3c4338211e9519033ab7a903198"`);
    await queryRunner.query(`ALTER TABLE "ci_runner_projects" DROP CONSTRAINT "FK_86581eddf8e8c1447bffc2a4ad2"`);
    await queryRunner.query(`ALTER TABLE "ci_runner_projects" DROP CONSTRAINT "FK_247453c311a38b30ebbf7e5d427"`);
    await queryRunner.query(`ALTER TABLE "ci_runners" DROP CONSTRAINT "FK_1256f2b23bcba173b5b1798c8a7"`);
    await queryRunner.query(`ALTER TABLE "ci_pipeline_variables" DROP CONSTRAINT "FK_20bed203ab0def5be54ec3da7b1"`);
    await queryRunner.query(`ALTER TABLE "ci_job_traces" DROP CONSTRAINT "FK_de8a327c1b3b8f39a3d48e019d9"`);
    await queryRunner.query(`ALTER TABLE "ci_job_artifacts" DROP CONSTRAINT "FK_1083d7f23fb9d2162c950d5d8e7"`);
    await queryRunner.query(`ALTER TABLE "ci_jobs" DROP CONSTRAINT "FK_1295b82923084344602525aa970"`);
    await queryRunner.query(`ALTER TABLE "ci_jobs" DROP CONSTRAINT "FK_b7e549313c48f5bfaf0a56234a3"`);
    await queryRunner.query(`ALTER TABLE "ci_pipelines" DROP CONSTRAINT "FK_0418b3bb8edf75ed74f858517d4"`);
    await queryRunner.query(`ALTER TABLE "ci_pipelines" DROP CONSTRAINT "FK_37ee24c7de8f8e095dee40c6dd5"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_bd2155fc6a76186104ad1efa15"`);
    await queryRunner.query(`DROP TABLE "ci_stages"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_9309c54b4bf5c774fba7fbc6f6"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_86581eddf8e8c1447bffc2a4ad"`);
    await queryRunner.query(`DROP TABLE "ci_runner_projects"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_1256f2b23bcba173b5b1798c8a"`);
    await queryRunner.query(`DROP TABLE "ci_runners"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_9ac7281e8acdc42b99b5a79b25"`);
    await queryRunner.query(`DROP TABLE "ci_pipeline_variables"`);
    await queryRunner.query(`DROP TABLE "ci_job_traces"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_9f65667b2d9356f03841b4a856"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ci_job_artifacts_expiring"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_46bada321fde3b903f4c8c2e58"`);
    await queryRunner.query(`DROP TABLE "ci_job_artifacts"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_1530d71d5ca2f89817af9dfa6c"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_d08c1fca5aa4e33a95bf4e5106"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ci_jobs_pending_queue"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ci_jobs_running"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_1ad34823b5b70eb3bb45d15374"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ce876119722407565168ee110e"`);
    await queryRunner.query(`DROP TABLE "ci_jobs"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_4a796a100fc8ad9d1ea8eca31b"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_f324974eb104461a1548ed8df1"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_31d71cfe1d357f61aad46816bb"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ae3aa2ec0c76b1e36e900523a1"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_6a0f6104218e183526464ab982"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_934d696641a656fd01ef6ca529"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ci_pipelines_trigger_event"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_0418b3bb8edf75ed74f858517d"`);
    await queryRunner.query(`DROP TABLE "ci_pipelines"`);
  }
}
