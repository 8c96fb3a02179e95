import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Project lists, stars, statistics and topics:
 * - `project_stars` (one row per user and project) and a trigger that keeps
 *   `projects.star_count` equal to the number of rows (also when users or projects are deleted);
 * - `project_statistics` (sizes and counters; `storage_size` is the sum of the sizes, kept by a trigger);
 * - `topics` (unique case-insensitively), filled by a trigger from `projects.topics`;
 * - project timestamps at millisecond precision, so that keyset cursors carry them exactly;
 * - the pg_trgm extension (trusted: a database owner may create it) for `order_by=similarity`;
 * - `projects.last_activity_at` follows the contribution events of the project (at most one
 *   update per project and minute, never backwards), as GitLab's events touch their project.
 */
export class ProjectListsStarsArchive1795353519689 implements MigrationInterface {
  name = 'ProjectListsStarsArchive1795353519689';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(`
            CREATE TABLE "project_stars" (
                "user_id" integer NOT NULL,
                "project_id" integer NOT NULL,
                "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_017f74b69c37ec0dbdd3ac91688" PRIMARY KEY ("user_id", "project_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "project_stars_project_created_idx" ON "project_stars" ("project_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE TABLE "project_statistics" (
                "project_id" integer NOT NULL,
                "commit_count" bigint NOT NULL DEFAULT '0',
                "storage_size" bigint NOT NULL DEFAULT '0',
                "repository_size" bigint NOT NULL DEFAULT '0',
                "wiki_size" bigint NOT NULL DEFAULT '0',
                "lfs_objects_size" bigint NOT NULL DEFAULT '0',
                "job_artifacts_size" bigint NOT NULL DEFAULT '0',
                "pipeline_artifacts_size" bigint NOT NULL DEFAULT '0',
                "packages_size" bigint NOT NULL DEFAULT '0',
                "snippets_size" bigint NOT NULL DEFAULT '0',
                "uploads_size" bigint NOT NULL DEFAULT '0',
                "container_registry_size" bigint NOT NULL DEFAULT '0',
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_ebbb33068a2387ad097307216fe" PRIMARY KEY ("project_id")
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "topics" (
                "id" SERIAL NOT NULL,
                "name" character varying(255) NOT NULL,
                "title" character varying(255) NOT NULL,
                "description" text,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_e4aa99a3fa60ec3a37d1fc4e853" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`CREATE UNIQUE INDEX "topics_name_lower_key" ON "topics" (lower("name"))`);
    await queryRunner.query(`
            ALTER TABLE "projects"
            ALTER COLUMN "last_activity_at" TYPE TIMESTAMP(3) WITH TIME ZONE
        `);
    await queryRunner.query(`
            ALTER TABLE "projects"
            ALTER COLUMN "created_at" TYPE TIMESTAMP(3) WITH TIME ZONE
        `);
    await queryRunner.query(`
            ALTER TABLE "projects"
            ALTER COLUMN "updated_at" TYPE TIMESTAMP(3) WITH TIME ZONE
        `);
    await queryRunner.query(`
            ALTER TABLE "project_stars"
            ADD CONSTRAINT "FK_e33920465fc52ecd4ce5103bb9c" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "project_stars"
            ADD CONSTRAINT "FK_20ff0f8ce63be32e0c0aea4ca22" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "project_statistics"
            ADD CONSTRAINT "FK_ebbb33068a2387ad097307216fe" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);

    // star_count = number of stars, maintained in the transaction that adds or removes one.
    await queryRunner.query(`
            CREATE FUNCTION project_stars_count() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF TG_OP = 'INSERT' THEN
                UPDATE projects SET star_count = star_count + 1 WHERE id = NEW.project_id;
                RETURN NEW;
              END IF;
              UPDATE projects SET star_count = GREATEST(star_count - 1, 0) WHERE id = OLD.project_id;
              RETURN OLD;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER project_stars_count AFTER INSERT OR DELETE ON project_stars
            FOR EACH ROW EXECUTE FUNCTION project_stars_count()
        `);
    await queryRunner.query(`UPDATE projects SET star_count = 0`);

    // storage_size = the sum of the sizes.
    await queryRunner.query(`
            CREATE FUNCTION project_statistics_storage_size() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              NEW.storage_size := NEW.repository_size + NEW.wiki_size + NEW.lfs_objects_size + NEW.job_artifacts_size
                + NEW.pipeline_artifacts_size + NEW.packages_size + NEW.snippets_size + NEW.uploads_size + NEW.container_registry_size;
              RETURN NEW;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER project_statistics_storage_size BEFORE INSERT OR UPDATE ON project_statistics
            FOR EACH ROW EXECUTE FUNCTION project_statistics_storage_size()
        `);

    // Every topic name a project carries has a row in topics (first spelling wins).
    await queryRunner.query(`
            CREATE FUNCTION projects_register_topics() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              INSERT INTO topics (name, title)
                SELECT DISTINCT ON (lower(t)) t, t FROM unnest(NEW.topics) AS t WHERE btrim(t) <> '' ORDER BY lower(t), t
                ON CONFLICT ((lower(name))) DO NOTHING;
              RETURN NULL;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER projects_register_topics AFTER INSERT OR UPDATE OF topics ON projects
            FOR EACH ROW WHEN (cardinality(NEW.topics) > 0) EXECUTE FUNCTION projects_register_topics()
        `);
    await queryRunner.query(`
            INSERT INTO topics (name, title)
              SELECT DISTINCT ON (lower(t)) t, t FROM projects p, unnest(p.topics) AS t WHERE btrim(t) <> '' ORDER BY lower(t), t
              ON CONFLICT ((lower(name))) DO NOTHING
        `);

    await queryRunner.query(`
            CREATE FUNCTION events_touch_project_activity() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              UPDATE projects p SET last_activity_at = a.at
              FROM (SELECT project_id, max(created_at) AS at FROM inserted_events WHERE project_id IS NOT NULL GROUP BY project_id) a
              WHERE p.id = a.project_id AND p.last_activity_at < a.at - interval '1 minute';
              RETURN NULL;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER events_touch_project_activity AFTER INSERT ON events
            REFERENCING NEW TABLE AS inserted_events FOR EACH STATEMENT EXECUTE FUNCTION events_touch_project_activity()
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER events_touch_project_activity ON events`);
    await queryRunner.query(`DROP FUNCTION events_touch_project_activity()`);
    await queryRunner.query(`DROP TRIGGER projects_register_topics ON projects`);
    await queryRunner.query(`DROP FUNCTION projects_register_topics()`);
    await queryRunner.query(`DROP TRIGGER project_statistics_storage_size ON project_statistics`);
    await queryRunner.query(`DROP FUNCTION project_statistics_storage_size()`);
    await queryRunner.query(`DROP TRIGGER project_stars_count ON project_stars`);
    await queryRunner.query(`DROP FUNCTION project_stars_count()`);
    await queryRunner.query(`
            ALTER TABLE "project_statistics" DROP CONSTRAINT "FK_ebbb33068a2387ad097307216fe"
        `);
    await queryRunner.query(`
            ALTER TABLE "project_stars" DROP CONSTRAINT "FK_20ff0f8ce63be32e0c0aea4ca22"
        `);
    await queryRunner.query(`
            ALTER TABLE "project_stars" DROP CONSTRAINT "FK_e33920465fc52ecd4ce5103bb9c"
        `);
    await queryRunner.query(`
            ALTER TABLE "projects"
            ALTER COLUMN "updated_at" TYPE TIMESTAMP(6) WITH TIME ZONE
        `);
    await queryRunner.query(`
            ALTER TABLE "projects"
            ALTER COLUMN "created_at" TYPE TIMESTAMP(6) WITH TIME ZONE
        `);
    await queryRunner.query(`
            ALTER TABLE "projects"
            ALTER COLUMN "last_activity_at" TYPE TIMESTAMP(6) WITH TIME ZONE
        `);
    await queryRunner.query(`DROP INDEX "public"."topics_name_lower_key"`);
    await queryRunner.query(`
            DROP TABLE "topics"
        `);
    await queryRunner.query(`
            DROP TABLE "project_statistics"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."project_stars_project_created_idx"
        `);
    await queryRunner.query(`
            DROP TABLE "project_stars"
        `);
  }
}
