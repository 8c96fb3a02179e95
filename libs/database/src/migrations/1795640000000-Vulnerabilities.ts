import { MigrationInterface, QueryRunner } from 'typeorm';

/** Vulnerabilities (ULTIMATE): scanners, identifiers, findings of security reports, vulnerabilities, security scans of pipelines. */
export class Vulnerabilities1795640000000 implements MigrationInterface {
  name = 'Vulnerabilities1795640000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "vulnerability_scanners" ( "id" SERIAL NOT NULL, "project_id" integer NOT NULL, "external_id" character varying(255) NOT NULL, "name" character varying(255) NOT NULL, "vendor" character varying(255), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_vulnerability_scanners" PRIMARY KEY ("id") )`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_vulnerability_scanners_external" ON "vulnerability_scanners" ("project_id", "external_id")`);
    await queryRunner.query(
      `CREATE TABLE "vulnerability_identifiers" ( "id" SERIAL NOT NULL, "project_id" integer NOT NULL, "fingerprint" character varying(40) NOT NULL, "external_type" character varying(255) NOT NULL, "external_id" character varying(255) NOT NULL, "name" character varying(2048) NOT NULL, "url" character varying(2048), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_vulnerability_identifiers" PRIMARY KEY ("id") )`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_vulnerability_identifiers_fingerprint" ON "vulnerability_identifiers" ("project_id", "fingerprint")`);
    await queryRunner.query(
      `CREATE TABLE "vulnerabilities" ( "id" SERIAL NOT NULL, "project_id" integer NOT NULL, "author_id" integer, "title" character varying(255) NOT NULL, "description" text, "state" character varying(20) NOT NULL, "severity" character varying(20) NOT NULL, "confidence" character varying(20) NOT NULL, "report_type" character varying(40) NOT NULL, "resolved_on_default_branch" boolean NOT NULL DEFAULT false, "confirmed_at" TIMESTAMP WITH TIME ZONE, "confirmed_by_id" integer, "resolved_at" TIMESTAMP WITH TIME ZONE, "resolved_by_id" integer, "dismissed_at" TIMESTAMP WITH TIME ZONE, "dismissed_by_id" integer, "updated_by_id" integer, "last_edited_at" TIMESTAMP WITH TIME ZONE, "last_edited_by_id" integer, "start_date" date, "due_date" date, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_vulnerabilities" PRIMARY KEY ("id") )`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_vulnerabilities_project" ON "vulnerabilities" ("project_id", "id")`);
    await queryRunner.query(
      `CREATE TABLE "vulnerability_findings" ( "id" SERIAL NOT NULL, "project_id" integer NOT NULL, "uuid" uuid NOT NULL, "report_type" character varying(40) NOT NULL, "name" character varying(255) NOT NULL, "description" text, "severity" character varying(20) NOT NULL, "confidence" character varying(20) NOT NULL, "scanner_id" integer NOT NULL, "primary_identifier_id" integer NOT NULL, "location_fingerprint" character varying(40) NOT NULL, "project_fingerprint" character varying(40) NOT NULL, "location" jsonb NOT NULL DEFAULT '{}', "metadata_version" character varying(255) NOT NULL, "raw_metadata" text NOT NULL, "vulnerability_id" integer, "latest_pipeline_id" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_vulnerability_findings_uuid" UNIQUE ("uuid"), CONSTRAINT "PK_vulnerability_findings" PRIMARY KEY ("id") )`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_vulnerability_findings_project" ON "vulnerability_findings" ("project_id", "id")`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_vulnerability_findings_vulnerability" ON "vulnerability_findings" ("vulnerability_id") WHERE vulnerability_id IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_vulnerability_findings_scanner" ON "vulnerability_findings" ("scanner_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_vulnerability_findings_primary_identifier" ON "vulnerability_findings" ("primary_identifier_id")`);
    await queryRunner.query(
      `CREATE TABLE "vulnerability_finding_identifiers" ( "finding_id" integer NOT NULL, "identifier_id" integer NOT NULL, CONSTRAINT "PK_vulnerability_finding_identifiers" PRIMARY KEY ("finding_id", "identifier_id") )`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_vulnerability_finding_identifiers_identifier" ON "vulnerability_finding_identifiers" ("identifier_id")`);
    await queryRunner.query(
      `CREATE TABLE "security_scans" ( "id" SERIAL NOT NULL, "project_id" integer NOT NULL, "pipeline_id" integer NOT NULL, "job_id" integer NOT NULL, "scan_type" character varying(40) NOT NULL, "status" character varying(20) NOT NULL, "errors" jsonb NOT NULL DEFAULT '[]', "warnings" jsonb NOT NULL DEFAULT '[]', "findings_count" integer NOT NULL DEFAULT 0, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_security_scans" PRIMARY KEY ("id") )`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_security_scans_job_type" ON "security_scans" ("job_id", "scan_type")`);
    await queryRunner.query(`CREATE INDEX "IDX_security_scans_pipeline" ON "security_scans" ("project_id", "pipeline_id")`);
    await queryRunner.query(
      `ALTER TABLE "vulnerability_scanners" ADD CONSTRAINT "FK_vulnerability_scanners_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "vulnerability_identifiers" ADD CONSTRAINT "FK_vulnerability_identifiers_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "vulnerabilities" ADD CONSTRAINT "FK_vulnerabilities_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE`,
    );
    for (const column of ['author_id', 'confirmed_by_id', 'resolved_by_id', 'dismissed_by_id', 'updated_by_id', 'last_edited_by_id']) {
      await queryRunner.query(
        `ALTER TABLE "vulnerabilities" ADD CONSTRAINT "FK_vulnerabilities_${column}" FOREIGN KEY ("${column}") REFERENCES "users"("id") ON DELETE SET NULL`,
      );
    }
    await queryRunner.query(
      `ALTER TABLE "vulnerability_findings" ADD CONSTRAINT "FK_vulnerability_findings_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "vulnerability_findings" ADD CONSTRAINT "FK_vulnerability_findings_scanner" FOREIGN KEY ("scanner_id") REFERENCES "vulnerability_scanners"("id") ON DELETE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "vulnerability_findings" ADD CONSTRAINT "FK_vulnerability_findings_primary_identifier" FOREIGN KEY ("primary_identifier_id") REFERENCES "vulnerability_identifiers"("id") ON DELETE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "vulnerability_findings" ADD CONSTRAINT "FK_vulnerability_findings_vulnerability" FOREIGN KEY ("vulnerability_id") REFERENCES "vulnerabilities"("id") ON DELETE SET NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "vulnerability_finding_identifiers" ADD CONSTRAINT "FK_vulnerability_finding_identifiers_finding" FOREIGN KEY ("finding_id") REFERENCES "vulnerability_findings"("id") ON DELETE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "vulnerability_finding_identifiers" ADD CONSTRAINT "FK_vulnerability_finding_identifiers_identifier" FOREIGN KEY ("identifier_id") REFERENCES "vulnerability_identifiers"("id") ON DELETE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "security_scans" ADD CONSTRAINT "FK_security_scans_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "security_scans" ADD CONSTRAINT "FK_security_scans_pipeline" FOREIGN KEY ("pipeline_id") REFERENCES "ci_pipelines"("id") ON DELETE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "security_scans" ADD CONSTRAINT "FK_security_scans_job" FOREIGN KEY ("job_id") REFERENCES "ci_jobs"("id") ON DELETE CASCADE`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "security_scans"`);
    await queryRunner.query(`DROP TABLE "vulnerability_finding_identifiers"`);
    await queryRunner.query(`DROP TABLE "vulnerability_findings"`);
    await queryRunner.query(`DROP TABLE "vulnerabilities"`);
    await queryRunner.query(`DROP TABLE "vulnerability_identifiers"`);
    await queryRunner.query(`DROP TABLE "vulnerability_scanners"`);
  }
}
