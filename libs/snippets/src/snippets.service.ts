import { Injectable } from '@nestjs/common';
import { DomainError, intParam } from '@app/api';
import type { ProjectWithNamespace } from '@app/namespaces';
import type { SelectQueryBuilder } from 'typeorm';
import type { SnippetFileEntity } from './entities/snippet-file.entity';
import type { SnippetEntity } from './entities/snippet.entity';
import { snippetReadable, snippetsFeatureOpen, SnippetViewer } from './core/snippet-access';
import { SnippetsRepository } from './core/snippets.repository';

/** Finds project snippets the caller may read (404 otherwise, as GitLab), for the snippets and notes routes. */
@Injectable()
export class SnippetsService {
  constructor(private readonly snippets: SnippetsRepository) {}

  /** 404 when the project's snippets feature is closed to the caller. */
  checkFeature(project: ProjectWithNamespace, viewer: SnippetViewer | null, accessLevel: number): void {
    if (!snippetsFeatureOpen(project, viewer, accessLevel)) throw DomainError.notFound('Snippet');
  }

  listQuery(project: ProjectWithNamespace, viewer: SnippetViewer | null, accessLevel: number): SelectQueryBuilder<SnippetEntity> {
    this.checkFeature(project, viewer, accessLevel);
    return this.snippets.visibleQuery(project.id, viewer, accessLevel);
  }

  async readable(project: ProjectWithNamespace, rawId: string, viewer: SnippetViewer | null, accessLevel: number): Promise<SnippetEntity> {
    this.checkFeature(project, viewer, accessLevel);
    const snippet = await this.snippets.find(project.id, intParam('snippet_id', rawId, 'Snippet'));
    if (!snippet || !snippetReadable(snippet, viewer, accessLevel)) throw DomainError.notFound('Snippet');
    snippet.files?.sort((a, b) => a.position - b.position);
    return snippet;
  }

  filesOf(rows: SnippetEntity[]): Promise<Map<number, SnippetFileEntity[]>> {
    return this.snippets.files(rows.map((r) => r.id));
  }
}
