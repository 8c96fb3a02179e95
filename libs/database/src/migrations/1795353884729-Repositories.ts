import { MigrationInterface, QueryRunner } from 'typeorm';

/** Language statistics per project (`project_languages`) and the merge columns of merge requests. */
export class Repositories1795353884729 implements MigrationInterface {
  name = 'Repositories1795353884729';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "project_languages" (
                "project_id" integer NOT NULL,
                "commit_sha" character varying(40) NOT NULL,
                "languages" jsonb NOT NULL DEFAULT '{}',
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_72bcf5b4c57f34982e1dc024315" PRIMARY KEY ("project_id")
            )
        `);
    await queryRunner.query(`ALTER TABLE "merge_requests" ADD "merged_by_id" integer`);
    await queryRunner.query(`ALTER TABLE "merge_requests" ADD "merged_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "merge_requests" ADD "merge_commit_sha" character varying(40)`);
    await queryRunner.query(`ALTER TABLE "merge_requests" ADD "squash_commit_sha" character varying(40)`);
    await queryRunner.query(`
            ALTER TABLE "project_languages"
            ADD CONSTRAINT "FK_72bcf5b4c57f34982e1dc024315" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "project_languages" DROP CONSTRAINT "FK_72bcf5b4c57f34982e1dc024315"`);
    await queryRunner.query(`ALTER TABLE "merge_requests" DROP COLUMN "squash_commit_sha"`);
    await queryRunner.query(`ALTER TABLE "merge_requests" DROP COLUMN "merge_commit_sha"`);
    await queryRunner.query(`ALTER TABLE "merge_requests" DROP COLUMN "merged_at"`);
    await queryRunner.query(`ALTER TABLE "merge_requests" DROP COLUMN "merged_by_id"`);
    await queryRunner.query(`DROP TABLE "project_languages"`);
  }
}
