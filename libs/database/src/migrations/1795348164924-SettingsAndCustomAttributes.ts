import { MigrationInterface, QueryRunner } from 'typeorm';

export class SettingsAndCustomAttributes1795348164924 implements MigrationInterface {
  name = 'SettingsAndCustomAttributes1795348164924';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "application_settings" (
                "id" integer NOT NULL DEFAULT '1',
                "values" jsonb NOT NULL DEFAULT '{}',
                "encrypted_secrets" jsonb NOT NULL DEFAULT '{}',
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "application_settings_singleton" CHECK ("id" = 1),
                CONSTRAINT "PK_84c911c1d401de2adbc8060b6d2" PRIMARY KEY ("id")
            )
        `);
    // The one settings row exists from the start: its created_at is the instance's.
    await queryRunner.query(`
            INSERT INTO "application_settings" ("id") VALUES (1) ON CONFLICT DO NOTHING
        `);
    await queryRunner.query(`
            CREATE TABLE "user_custom_attributes" (
                "id" SERIAL NOT NULL,
                "key" character varying(255) NOT NULL,
                "value" character varying(255) NOT NULL,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "user_id" integer NOT NULL,
                CONSTRAINT "PK_54c52c2af2dd550da02c8d46761" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "user_custom_attributes_key_value_idx" ON "user_custom_attributes" ("key", "value")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "user_custom_attributes_user_id_key_key" ON "user_custom_attributes" ("user_id", "key")
        `);
    await queryRunner.query(`
            CREATE TABLE "group_custom_attributes" (
                "id" SERIAL NOT NULL,
                "key" character varying(255) NOT NULL,
                "value" character varying(255) NOT NULL,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "group_id" integer NOT NULL,
                CONSTRAINT "PK_68dad3087e384d07307ffe2baf6" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "group_custom_attributes_key_value_idx" ON "group_custom_attributes" ("key", "value")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "group_custom_attributes_group_id_key_key" ON "group_custom_attributes" ("group_id", "key")
        `);
    await queryRunner.query(`
            CREATE TABLE "project_custom_attributes" (
                "id" SERIAL NOT NULL,
                "key" character varying(255) NOT NULL,
                "value" character varying(255) NOT NULL,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "project_id" integer NOT NULL,
                CONSTRAINT "PK_b7d200642ae88390417920edd6f" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "project_custom_attributes_key_value_idx" ON "project_custom_attributes" ("key", "value")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "project_custom_attributes_project_id_key_key" ON "project_custom_attributes" ("project_id", "key")
        `);
    await queryRunner.query(`
            ALTER TABLE "user_custom_attributes"
            ADD CONSTRAINT "FK_878496b7892c053dd95f9ce5bf9" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "group_custom_attributes"
            ADD CONSTRAINT "FK_f519b4e6a65994ea9a30af7a71c" FOREIGN KEY ("group_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "project_custom_attributes"
            ADD CONSTRAINT "FK_e88f72b29a5d0182fc5ca84a050" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "project_custom_attributes" DROP CONSTRAINT "FK_e88f72b29a5d0182fc5ca84a050"
        `);
    await queryRunner.query(`
            ALTER TABLE "group_custom_attributes" DROP CONSTRAINT "FK_f519b4e6a65994ea9a30af7a71c"
        `);
    await queryRunner.query(`
            ALTER TABLE "user_custom_attributes" DROP CONSTRAINT "FK_878496b7892c053dd95f9ce5bf9"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."project_custom_attributes_project_id_key_key"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."project_custom_attributes_key_value_idx"
        `);
    await queryRunner.query(`
            DROP TABLE "project_custom_attributes"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."group_custom_attributes_group_id_key_key"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."group_custom_attributes_key_value_idx"
        `);
    await queryRunner.query(`
            DROP TABLE "group_custom_attributes"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."user_custom_attributes_user_id_key_key"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."user_custom_attributes_key_value_idx"
        `);
    await queryRunner.query(`
            DROP TABLE "user_custom_attributes"
        `);
    await queryRunner.query(`
            DROP TABLE "application_settings"
        `);
  }
}
