import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alert integrations get a type: `http` (the generic JSON payload) or `prometheus` (Alertmanager's
 * webhook payload, at most one per project: its notify URL names no integration).
 */
export class PrometheusIntegrations1795620000000 implements MigrationInterface {
  name = 'PrometheusIntegrations1795620000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "alert_http_integrations" ADD "type" character varying(20) NOT NULL DEFAULT 'http'`);
    await queryRunner.query(
      `ALTER TABLE "alert_http_integrations" ADD CONSTRAINT "alert_http_integrations_type_check" CHECK ("type" IN ('http', 'prometheus'))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "alert_http_integrations_one_prometheus_key" ON "alert_http_integrations" ("project_id") WHERE type = 'prometheus'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."alert_http_integrations_one_prometheus_key"`);
    await queryRunner.query(`ALTER TABLE "alert_http_integrations" DROP CONSTRAINT "alert_http_integrations_type_check"`);
    await queryRunner.query(`ALTER TABLE "alert_http_integrations" DROP COLUMN "type"`);
  }
}
