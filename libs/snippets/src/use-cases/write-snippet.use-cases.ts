import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import type { ProjectWithNamespace } from '@app/namespaces';
import { SettingsReader } from '@app/settings';
import { DataSource } from 'typeorm';
import type { CreateSnippetDto, UpdateSnippetDto } from '../dto/snippet.dto';
import { SnippetEntity } from '../entities/snippet.entity';
import { mayChangeSnippet, mayCreateSnippet, SnippetViewer } from '../core/snippet-access';
import { checkSnippetSize, filesOfCreate, filesOfUpdate } from '../core/snippet-files';
import { SNIPPET_EVENTS, snippetEvent } from '../core/snippets.events';
import { SnippetsRepository } from '../core/snippets.repository';

const groupOf = (project: ProjectWithNamespace): number | null => (project.namespace.kind === 'group' ? project.namespace.id : null);

export interface CreateSnippetCommand {
  project: ProjectWithNamespace;
  actor: SnippetViewer;
  accessLevel: number;
  attributes: CreateSnippetDto;
}

/** `POST /projects/:id/snippets` (Reporter+): the snippet, its files and `snippet.created` in one transaction. */
@Injectable()
export class CreateSnippetUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly snippets: SnippetsRepository,
    private readonly settings: SettingsReader,
  ) {}

  async execute({ project, actor, accessLevel, attributes }: CreateSnippetCommand): Promise<SnippetEntity> {
    if (!mayCreateSnippet(actor, accessLevel)) throw DomainError.forbidden();
    const files = filesOfCreate(attributes);
    if (attributes.title.trim() === '') throw DomainError.invalid({ title: ["can't be blank"] });
    checkSnippetSize(files, (await this.settings.get()).number('snippet_size_limit'));
    const snippet = Object.assign(new SnippetEntity(), {
      projectId: project.id,
      authorId: actor.id,
      title: attributes.title,
      description: attributes.description ?? null,
      visibility: attributes.visibility ?? 'private',
    });
    return this.dataSource.transaction(async (tx) => {
      const saved = await this.snippets.save(tx, snippet, files);
      await this.outbox.append(tx, snippetEvent(SNIPPET_EVENTS.CREATED, actor.id, saved, groupOf(project)));
      return saved;
    });
  }
}

export interface UpdateSnippetCommand {
  project: ProjectWithNamespace;
  snippet: SnippetEntity;
  actor: SnippetViewer;
  accessLevel: number;
  attributes: UpdateSnippetDto;
}

/** `PUT /projects/:id/snippets/:snippet_id` (author, Maintainers+): attributes and file actions; `snippet.updated` with `changed`. */
@Injectable()
export class UpdateSnippetUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly snippets: SnippetsRepository,
    private readonly settings: SettingsReader,
  ) {}

  async execute({ project, snippet, actor, accessLevel, attributes }: UpdateSnippetCommand): Promise<SnippetEntity> {
    if (!mayChangeSnippet(snippet, actor, accessLevel)) throw DomainError.forbidden();
    const current = (snippet.files ?? []).map((f) => ({ path: f.path, content: f.content }));
    const files = filesOfUpdate(current, attributes);
    const changed: string[] = [];
    for (const key of ['title', 'description', 'visibility'] as const) {
      const value = attributes[key];
      if (value !== undefined && value !== snippet[key]) {
        Object.assign(snippet, { [key]: value });
        changed.push(key);
      }
    }
    if (snippet.title.trim() === '') throw DomainError.invalid({ title: ["can't be blank"] });
    if (files && JSON.stringify(files) !== JSON.stringify(current)) {
      // As GitLab, the limit applies when the content changes (a snippet over a lowered limit keeps its title edits).
      checkSnippetSize(files, (await this.settings.get()).number('snippet_size_limit'));
      changed.push('files');
    }
    if (changed.length === 0) return snippet;
    return this.dataSource.transaction(async (tx) => {
      const saved = await this.snippets.save(tx, snippet, files ?? current);
      await this.outbox.append(tx, snippetEvent(SNIPPET_EVENTS.UPDATED, actor.id, saved, groupOf(project), { changed }));
      return saved;
    });
  }
}

export interface DeleteSnippetCommand {
  project: ProjectWithNamespace;
  snippet: SnippetEntity;
  actor: SnippetViewer;
  accessLevel: number;
}

/** `DELETE /projects/:id/snippets/:snippet_id` (author, Maintainers+). */
@Injectable()
export class DeleteSnippetUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly snippets: SnippetsRepository,
  ) {}

  async execute({ project, snippet, actor, accessLevel }: DeleteSnippetCommand): Promise<void> {
    if (!mayChangeSnippet(snippet, actor, accessLevel)) throw DomainError.forbidden();
    await this.dataSource.transaction(async (tx) => {
      if (await this.snippets.delete(tx, snippet.id)) await this.outbox.append(tx, snippetEvent(SNIPPET_EVENTS.DESTROYED, actor.id, snippet, groupOf(project)));
    });
  }
}
