import { MigrationInterface, QueryRunner } from 'typeorm';

export class Alerting1795348067234 implements MigrationInterface {
  name = 'Alerting1795348067234';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "alert_http_integrations" (
                "id" SERIAL NOT NULL,
                "project_id" integer NOT NULL,
                "name" character varying(255) NOT NULL,
                "endpoint_identifier" character varying(32) NOT NULL,
                "active" boolean NOT NULL DEFAULT true,
                "token_digest" character(64) NOT NULL,
                "payload_example" text,
                "payload_attribute_mappings" jsonb NOT NULL DEFAULT '[]',
                "create_incident" boolean NOT NULL DEFAULT false,
                "auto_close_incident" boolean NOT NULL DEFAULT true,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_bd49d57fe1f7809592371b0957e" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "alert_http_integrations_project_endpoint_key" ON "alert_http_integrations" ("project_id", "endpoint_identifier")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "alert_http_integrations_project_name_key" ON "alert_http_integrations" ("project_id", "name")
        `);
    await queryRunner.query(`
            CREATE TABLE "alert_iid_counters" (
                "project_id" integer NOT NULL,
                "last_iid" integer NOT NULL DEFAULT '0',
                CONSTRAINT "PK_b2013439b51f433117f0fe76bc2" PRIMARY KEY ("project_id")
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "alerts" (
                "id" SERIAL NOT NULL,
                "project_id" integer NOT NULL,
                "iid" integer NOT NULL,
                "integration_id" integer,
                "title" character varying(200) NOT NULL,
                "description" character varying(1000),
                "severity" character varying(10) NOT NULL,
                "status" character varying(12) NOT NULL DEFAULT 'triggered',
                "service" character varying(100),
                "monitoring_tool" character varying(100),
                "hosts" text array NOT NULL DEFAULT '{}',
                "started_at" TIMESTAMP WITH TIME ZONE NOT NULL,
                "ended_at" TIMESTAMP WITH TIME ZONE,
                "event_count" integer NOT NULL DEFAULT '1',
                "last_received_at" TIMESTAMP WITH TIME ZONE NOT NULL,
                "fingerprint" character(40),
                "environment" character varying(255),
                "details" jsonb NOT NULL DEFAULT '{}',
                "issue_iid" integer,
                "assignee_ids" integer array NOT NULL DEFAULT '{}',
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_60f895662df096bfcdfab7f4b96" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "IDX_429a635b328e7f560017d91ae7" ON "alerts" ("integration_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "alerts_project_iid_key" ON "alerts" ("project_id", "iid")
        `);
    await queryRunner.query(`
            CREATE TABLE "alert_notes" (
                "id" SERIAL NOT NULL,
                "alert_id" integer NOT NULL,
                "author_id" integer,
                "body" text NOT NULL,
                "system" boolean NOT NULL DEFAULT true,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_a95fd471ec08a375c05fcc87653" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "IDX_7d169668681bf628393767a739" ON "alert_notes" ("alert_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "alert_unmatched_recoveries" (
                "id" SERIAL NOT NULL,
                "project_id" integer NOT NULL,
                "integration_id" integer,
                "fingerprint" character(40),
                "title" character varying(200) NOT NULL,
                "ended_at" TIMESTAMP WITH TIME ZONE NOT NULL,
                "payload" jsonb NOT NULL,
                "received_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_c6d3f80ca97088060658777bd1c" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "alert_unmatched_recoveries_project_received_idx" ON "alert_unmatched_recoveries" ("project_id", "received_at")
        `);
    await queryRunner.query(`
            ALTER TABLE "alert_http_integrations"
            ADD CONSTRAINT "FK_a6e13411ccf35f229d679e75103" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "alerts"
            ADD CONSTRAINT "FK_f01b21d21656ff12656cce07e22" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "alerts"
            ADD CONSTRAINT "FK_429a635b328e7f560017d91ae7f" FOREIGN KEY ("integration_id") REFERENCES "alert_http_integrations"("id") ON DELETE
            SET NULL ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "alert_notes"
            ADD CONSTRAINT "FK_7d169668681bf628393767a7393" FOREIGN KEY ("alert_id") REFERENCES "alerts"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    // Hand-written: grouping. At most one unresolved alert per project and fingerprint; the
    // ingestion upsert (INSERT ... ON CONFLICT) targets this index.
    await queryRunner.query(`
            CREATE UNIQUE INDEX "alerts_open_fingerprint_key" ON "alerts" ("project_id", "fingerprint")
            WHERE "status" <> 'resolved'
        `);
    await queryRunner.query(`
            CREATE INDEX "alerts_project_status_idx" ON "alerts" ("project_id", "status")
        `);
    await queryRunner.query(`
            ALTER TABLE "alerts" ADD CONSTRAINT "alerts_status_check"
            CHECK ("status" IN ('triggered', 'acknowledged', 'resolved', 'ignored'))
        `);
    await queryRunner.query(`
            ALTER TABLE "alerts" ADD CONSTRAINT "alerts_severity_check"
            CHECK ("severity" IN ('critical', 'high', 'medium', 'low', 'info', 'unknown'))
        `);
    await queryRunner.query(`
            ALTER TABLE "alert_iid_counters"
            ADD CONSTRAINT "alert_iid_counters_project_fk" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "alert_iid_counters" DROP CONSTRAINT "alert_iid_counters_project_fk"
        `);
    await queryRunner.query(`
            ALTER TABLE "alerts" DROP CONSTRAINT "alerts_severity_check"
        `);
    await queryRunner.query(`
            ALTER TABLE "alerts" DROP CONSTRAINT "alerts_status_check"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."alerts_project_status_idx"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."alerts_open_fingerprint_key"
        `);
    await queryRunner.query(`
            ALTER TABLE "alert_notes" DROP CONSTRAINT "FK_7d169668681bf628393767a7393"
        `);
    await queryRunner.query(`
            ALTER TABLE "alerts" DROP CONSTRAINT "FK_429a635b328e7f560017d91ae7f"
        `);
    await queryRunner.query(`
            ALTER TABLE "alerts" DROP CONSTRAINT "FK_f01b21d21656ff12656cce07e22"
        `);
    await queryRunner.query(`
            ALTER TABLE "alert_http_integrations" DROP CONSTRAINT "FK_a6e13411ccf35f229d679e75103"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."alert_unmatched_recoveries_project_received_idx"
        `);
    await queryRunner.query(`
            DROP TABLE "alert_unmatched_recoveries"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_7d169668681bf628393767a739"
        `);
    await queryRunner.query(`
            DROP TABLE "alert_notes"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."alerts_project_iid_key"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_429a635b328e7f560017d91ae7"
        `);
    await queryRunner.query(`
            DROP TABLE "alerts"
        `);
    await queryRunner.query(`
            DROP TABLE "alert_iid_counters"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."alert_http_integrations_project_name_key"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."alert_http_integrations_project_endpoint_key"
        `);
    await queryRunner.query(`
            DROP TABLE "alert_http_integrations"
        `);
  }
}
