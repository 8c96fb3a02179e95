import { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1795344358118 implements MigrationInterface {
  name = 'Initial1795344358118';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "users" (
                "id" SERIAL NOT NULL,
                "username" character varying(255) NOT NULL,
                "name" character varying(255) NOT NULL,
                "email" character varying(255) NOT NULL,
                "state" character varying(20) NOT NULL DEFAULT 'active',
                "user_type" character varying(20) NOT NULL DEFAULT 'human',
                "is_admin" boolean NOT NULL DEFAULT false,
                "password_digest" character varying(255),
                "bio" character varying(255) NOT NULL DEFAULT '',
                "location" character varying(255) NOT NULL DEFAULT '',
                "public_email" character varying(255) NOT NULL DEFAULT '',
                "skype" character varying(255) NOT NULL DEFAULT '',
                "linkedin" character varying(255) NOT NULL DEFAULT '',
                "twitter" character varying(255) NOT NULL DEFAULT '',
                "website_url" character varying(255) NOT NULL DEFAULT '',
                "organization" character varying(255) NOT NULL DEFAULT '',
                "job_title" character varying(255) NOT NULL DEFAULT '',
                "private_profile" boolean NOT NULL DEFAULT false,
                "external" boolean NOT NULL DEFAULT false,
                "can_create_group" boolean NOT NULL DEFAULT true,
                "projects_limit" integer NOT NULL DEFAULT '100000',
                "confirmed_at" TIMESTAMP WITH TIME ZONE,
                "last_activity_on" date,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "access_tokens" (
                "id" SERIAL NOT NULL,
                "user_id" integer NOT NULL,
                "name" character varying(255) NOT NULL,
                "description" character varying(255),
                "token_digest" character(64) NOT NULL,
                "scopes" text array NOT NULL DEFAULT '{}',
                "expires_at" date,
                "revoked" boolean NOT NULL DEFAULT false,
                "impersonation" boolean NOT NULL DEFAULT false,
                "resource_type" character varying(20) NOT NULL DEFAULT 'personal',
                "resource_id" integer,
                "access_level" integer,
                "last_used_at" TIMESTAMP WITH TIME ZONE,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "UQ_67d0973481459b0c1ea298cba04" UNIQUE ("token_digest"),
                CONSTRAINT "PK_65140f59763ff994a0252488166" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "IDX_09ee750a035b06e0c7f0704687" ON "access_tokens" ("user_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "oauth_access_tokens" (
                "id" SERIAL NOT NULL,
                "user_id" integer NOT NULL,
                "token_digest" character(64) NOT NULL,
                "refresh_token_digest" character(64) NOT NULL,
                "scopes" text array NOT NULL DEFAULT '{}',
                "expires_in" integer NOT NULL,
                "revoked_at" TIMESTAMP WITH TIME ZONE,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "UQ_b954d549ce3b68b936f92baddcf" UNIQUE ("token_digest"),
                CONSTRAINT "UQ_c0c338c3f947de76d7797885f36" UNIQUE ("refresh_token_digest"),
                CONSTRAINT "PK_5956b59ddf50246f933275699e3" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "IDX_2a145d311b29be597ff9612311" ON "oauth_access_tokens" ("user_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "outbox_events" (
                "seq" BIGSERIAL NOT NULL,
                "id" uuid NOT NULL,
                "topic" character varying(255) NOT NULL,
                "message_key" character varying(255) NOT NULL,
                "payload" jsonb NOT NULL,
                "headers" jsonb NOT NULL DEFAULT '{}',
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "published_at" TIMESTAMP WITH TIME ZONE,
                "attempts" integer NOT NULL DEFAULT '0',
                CONSTRAINT "UQ_cc48a1566b3b842a82f0b2615c8" UNIQUE ("seq"),
                CONSTRAINT "PK_6689a16c00d09b8089f6237f1d2" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "outbox_events_unpublished_idx" ON "outbox_events" ("seq")
            WHERE published_at IS NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "members" (
                "id" SERIAL NOT NULL,
                "source_type" character varying(10) NOT NULL,
                "source_id" integer NOT NULL,
                "user_id" integer NOT NULL,
                "access_level" integer NOT NULL,
                "created_by_id" integer,
                "expires_at" date,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_28b53062261b996d9c99fa12404" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "IDX_da404b5fd9c390e25338996e2d" ON "members" ("user_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "members_source_user_key" ON "members" ("source_type", "source_id", "user_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "namespaces" (
                "id" SERIAL NOT NULL,
                "name" character varying(255) NOT NULL,
                "path" character varying(255) NOT NULL,
                "full_path" character varying(2048) NOT NULL,
                "full_name" character varying(2048) NOT NULL,
                "kind" character varying(10) NOT NULL,
                "parent_id" integer,
                "traversal_ids" integer array NOT NULL DEFAULT '{}',
                "owner_id" integer,
                "description" character varying(2000) NOT NULL DEFAULT '',
                "visibility" character varying(10) NOT NULL DEFAULT 'private',
                "settings" jsonb NOT NULL DEFAULT '{}',
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_35c142e0f0de70165cc1a74b2cb" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "IDX_6d42df7b7257d46be060ff9e0f" ON "namespaces" ("parent_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "IDX_b2bad37e327f06ed7285fc3333" ON "namespaces" ("owner_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "projects" (
                "id" SERIAL NOT NULL,
                "name" character varying(255) NOT NULL,
                "path" character varying(255) NOT NULL,
                "namespace_id" integer NOT NULL,
                "description" character varying(2000),
                "visibility" character varying(10) NOT NULL DEFAULT 'private',
                "creator_id" integer,
                "default_branch" character varying(255),
                "archived" boolean NOT NULL DEFAULT false,
                "topics" text array NOT NULL DEFAULT '{}',
                "issues_enabled" boolean NOT NULL DEFAULT true,
                "merge_requests_enabled" boolean NOT NULL DEFAULT true,
                "merge_method" character varying(20) NOT NULL DEFAULT 'merge',
                "settings" jsonb NOT NULL DEFAULT '{}',
                "runners_token_digest" character(64),
                "star_count" integer NOT NULL DEFAULT '0',
                "forks_count" integer NOT NULL DEFAULT '0',
                "open_issues_count" integer NOT NULL DEFAULT '0',
                "last_activity_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "marked_for_deletion_on" date,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_6271df0a7aed1d6c0691ce6ac50" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "IDX_2ff83f8d06d453bdcb940be01f" ON "projects" ("namespace_id")
        `);
    await queryRunner.query(`
            ALTER TABLE "access_tokens"
            ADD CONSTRAINT "FK_09ee750a035b06e0c7f0704687e" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "projects"
            ADD CONSTRAINT "FK_2ff83f8d06d453bdcb940be01f6" FOREIGN KEY ("namespace_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    // Case-insensitive uniqueness (expression indexes are written by hand; the entities mark them synchronize: false).
    await queryRunner.query(`CREATE UNIQUE INDEX "users_username_lower_key" ON "users" (lower("username"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "users_email_lower_key" ON "users" (lower("email"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "namespaces_full_path_lower_key" ON "namespaces" (lower("full_path"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "projects_namespace_path_lower_key" ON "projects" ("namespace_id", lower("path"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "projects_namespace_name_lower_key" ON "projects" ("namespace_id", lower("name"))`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "projects_namespace_name_lower_key"`);
    await queryRunner.query(`DROP INDEX "projects_namespace_path_lower_key"`);
    await queryRunner.query(`DROP INDEX "namespaces_full_path_lower_key"`);
    await queryRunner.query(`DROP INDEX "users_email_lower_key"`);
    await queryRunner.query(`DROP INDEX "users_username_lower_key"`);
    await queryRunner.query(`
            ALTER TABLE "projects" DROP CONSTRAINT "FK_2ff83f8d06d453bdcb940be01f6"
        `);
    await queryRunner.query(`
            ALTER TABLE "access_tokens" DROP CONSTRAINT "FK_09ee750a035b06e0c7f0704687e"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_2ff83f8d06d453bdcb940be01f"
        `);
    await queryRunner.query(`
            DROP TABLE "projects"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_b2bad37e327f06ed7285fc3333"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_6d42df7b7257d46be060ff9e0f"
        `);
    await queryRunner.query(`
            DROP TABLE "namespaces"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."members_source_user_key"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_da404b5fd9c390e25338996e2d"
        `);
    await queryRunner.query(`
            DROP TABLE "members"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."outbox_events_unpublished_idx"
        `);
    await queryRunner.query(`
            DROP TABLE "outbox_events"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_2a145d311b29be597ff9612311"
        `);
    await queryRunner.query(`
            DROP TABLE "oauth_access_tokens"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_09ee750a035b06e0c7f0704687"
        `);
    await queryRunner.query(`
            DROP TABLE "access_tokens"
        `);
    await queryRunner.query(`
            DROP TABLE "users"
        `);
  }
}
