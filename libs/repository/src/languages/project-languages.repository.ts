import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The language statistics cache (`project_languages`): one row per project, for one commit. */
@Injectable()
export class ProjectLanguagesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The cached statistics of the project and the commit they are for (undefined: none). */
  async cached(projectId: number): Promise<{ commit_sha: string; languages: Record<string, number> } | undefined> {
    const [row] = (await this.dataSource.query('SELECT commit_sha, languages FROM project_languages WHERE project_id = $1', [projectId])) as Array<{
      commit_sha: string;
      languages: Record<string, number>;
    }>;
    return row;
  }

  /** Replaces the project's statistics. The project may be gone meanwhile: the insert then matches no project and does nothing. */
  async save(projectId: number, commit: string, languages: Record<string, number>): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO project_languages (project_id, commit_sha, languages, updated_at)
       SELECT p.id, $2, $3::jsonb, now() FROM projects p WHERE p.id = $1
       ON CONFLICT (project_id) DO UPDATE SET commit_sha = EXCLUDED.commit_sha, languages = EXCLUDED.languages, updated_at = now()`,
      [projectId, commit, JSON.stringify(languages)],
    );
  }
}
