import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The diff refs of a merge request as of its merge (GitLab keeps them in its merge request diff):
 * the source head (`sha`, `diff_refs.head_sha`), the merge base and the target head. They stay
 * when the source branch is removed.
 */
export class MergeRequestDiffRefs1795690000000 implements MigrationInterface {
  name = 'MergeRequestDiffRefs1795690000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "merge_requests" ADD "diff_head_sha" character varying(40)`);
    await queryRunner.query(`ALTER TABLE "merge_requests" ADD "diff_base_sha" character varying(40)`);
    await queryRunner.query(`ALTER TABLE "merge_requests" ADD "diff_start_sha" character varying(40)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "merge_requests" DROP COLUMN "diff_start_sha"`);
    await queryRunner.query(`ALTER TABLE "merge_requests" DROP COLUMN "diff_base_sha"`);
    await queryRunner.query(`ALTER TABLE "merge_requests" DROP COLUMN "diff_head_sha"`);
  }
}
