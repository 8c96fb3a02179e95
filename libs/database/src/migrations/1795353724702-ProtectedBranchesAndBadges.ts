import { MigrationInterface, QueryRunner } from 'typeorm';

export class ProtectedBranchesAndBadges1795353724702 implements MigrationInterface {
  name = 'ProtectedBranchesAndBadges1795353724702';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "badges" (
                "id" SERIAL NOT NULL,
                "kind" character varying(10) NOT NULL,
                "project_id" integer,
                "group_id" integer,
                "name" character varying(255),
                "link_url" character varying(2048) NOT NULL,
                "image_url" character varying(2048) NOT NULL,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_8a651318b8de577e8e217676466" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "IDX_7ea492cd4524ea3930ed4e4a8f" ON "badges" ("project_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "IDX_ce111146452a28609ef4a9fc5c" ON "badges" ("group_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "protected_branches" (
                "id" SERIAL NOT NULL,
                "project_id" integer NOT NULL,
                "name" character varying(255) NOT NULL,
                "allow_force_push" boolean NOT NULL DEFAULT false,
                "code_owner_approval_required" boolean NOT NULL DEFAULT false,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_79a47d0f42e69579026b4d65680" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "protected_branches_project_name_key" ON "protected_branches" ("project_id", "name")
        `);
    await queryRunner.query(`
            CREATE TABLE "protected_branch_access_levels" (
                "id" SERIAL NOT NULL,
                "protected_branch_id" integer NOT NULL,
                "action" character varying(10) NOT NULL,
                "access_level" integer,
                "user_id" integer,
                "group_id" integer,
                CONSTRAINT "PK_d66c6f25d0a2af14bce8f974cd2" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "IDX_ddec384ab2926b1899a814bc8d" ON "protected_branch_access_levels" ("protected_branch_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "IDX_81b15c90f7a7eb309d44ac108f" ON "protected_branch_access_levels" ("user_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "IDX_5a8874aea250dff05f1e06089c" ON "protected_branch_access_levels" ("group_id")
        `);
    await queryRunner.query(`
            ALTER TABLE "badges"
            ADD CONSTRAINT "FK_7ea492cd4524ea3930ed4e4a8fe" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "badges"
            ADD CONSTRAINT "FK_ce111146452a28609ef4a9fc5c9" FOREIGN KEY ("group_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "protected_branches"
            ADD CONSTRAINT "FK_6421da4e5ab99f8cba792224ebc" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "protected_branch_access_levels"
            ADD CONSTRAINT "FK_ddec384ab2926b1899a814bc8d7" FOREIGN KEY ("protected_branch_id") REFERENCES "protected_branches"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "protected_branch_access_levels"
            ADD CONSTRAINT "FK_81b15c90f7a7eb309d44ac108f9" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "protected_branch_access_levels"
            ADD CONSTRAINT "FK_5a8874aea250dff05f1e06089c7" FOREIGN KEY ("group_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "protected_branch_access_levels" DROP CONSTRAINT "FK_5a8874aea250dff05f1e06089c7"
        `);
    await queryRunner.query(`
            ALTER TABLE "protected_branch_access_levels" DROP CONSTRAINT "FK_81b15c90f7a7eb309d44ac108f9"
        `);
    await queryRunner.query(`
            ALTER TABLE "protected_branch_access_levels" DROP CONSTRAINT "FK_ddec384ab2926b1899a814bc8d7"
        `);
    await queryRunner.query(`
            ALTER TABLE "protected_branches" DROP CONSTRAINT "FK_6421da4e5ab99f8cba792224ebc"
        `);
    await queryRunner.query(`
            ALTER TABLE "badges" DROP CONSTRAINT "FK_ce111146452a28609ef4a9fc5c9"
        `);
    await queryRunner.query(`
            ALTER TABLE "badges" DROP CONSTRAINT "FK_7ea492cd4524ea3930ed4e4a8fe"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_5a8874aea250dff05f1e06089c"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_81b15c90f7a7eb309d44ac108f"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_ddec384ab2926b1899a814bc8d"
        `);
    await queryRunner.query(`
            DROP TABLE "protected_branch_access_levels"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."protected_branches_project_name_key"
        `);
    await queryRunner.query(`
            DROP TABLE "protected_branches"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_ce111146452a28609ef4a9fc5c"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_7ea492cd4524ea3930ed4e4a8f"
        `);
    await queryRunner.query(`
            DROP TABLE "badges"
        `);
  }
}
