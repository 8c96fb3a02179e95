import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { presentUserSummary, UsersRepository } from '@app/identity';
import { pathWithNamespace, ProjectWithNamespace } from '@app/namespaces';
import type { SnippetFileEntity } from './entities/snippet-file.entity';
import type { SnippetEntity } from './entities/snippet.entity';

/** Project snippets in GitLab's shape. */
@Injectable()
export class SnippetPresenter {
  constructor(
    private readonly users: UsersRepository,
    private readonly config: AppConfig,
  ) {}

  webUrl(project: ProjectWithNamespace, snippetId: number): string {
    return `${this.config.http.externalUrl}/${pathWithNamespace(project, project.namespace)}/-/snippets/${snippetId}`;
  }

  async present(snippets: SnippetEntity[], files: Map<number, SnippetFileEntity[]>, project: ProjectWithNamespace): Promise<Record<string, unknown>[]> {
    const authors = await this.users.mapByIds(snippets.map((s) => s.authorId));
    const repoUrl = `${this.config.http.externalUrl}/${pathWithNamespace(project, project.namespace)}/snippets`;
    return snippets.map((snippet) => {
      const own = files.get(snippet.id) ?? snippet.files ?? [];
      const author = authors.get(snippet.authorId);
      const webUrl = this.webUrl(project, snippet.id);
      return {
        id: snippet.id,
        title: snippet.title,
        description: snippet.description,
        visibility: snippet.visibility,
        author: author ? presentUserSummary(author, this.config.http.externalUrl) : null,
        created_at: snippet.createdAt.toISOString(),
        updated_at: snippet.updatedAt.toISOString(),
        project_id: snippet.projectId,
        web_url: webUrl,
        raw_url: `${webUrl}/raw`,
        file_name: own[0]?.path ?? null,
        files: own.map((file) => ({ path: file.path, raw_url: `${webUrl}/raw/main/${file.path.split('/').map(encodeURIComponent).join('/')}` })),
        expires_at: null,
        imported: false,
        imported_from: 'none',
        ssh_url_to_repo: null,
        http_url_to_repo: `${repoUrl}/${snippet.id}.git`,
        repository_storage: 'default',
      };
    });
  }
}
