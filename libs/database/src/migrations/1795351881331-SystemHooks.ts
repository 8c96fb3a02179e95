import { MigrationInterface, QueryRunner } from 'typeorm';

export class SystemHooks1795351881331 implements MigrationInterface {
  name = 'SystemHooks1795351881331';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "system_hooks" (
                "id" SERIAL NOT NULL,
                "url" character varying(2048) NOT NULL,
                "encrypted_token" text,
                "push_events" boolean NOT NULL DEFAULT false,
                "tag_push_events" boolean NOT NULL DEFAULT false,
                "merge_requests_events" boolean NOT NULL DEFAULT false,
                "repository_update_events" boolean NOT NULL DEFAULT true,
                "enable_ssl_verification" boolean NOT NULL DEFAULT true,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_655e5a881a4327821d76a742226" PRIMARY KEY ("id")
            )
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP TABLE "system_hooks"
        `);
  }
}
