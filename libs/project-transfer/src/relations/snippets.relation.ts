import { Injectable } from '@nestjs/common';
import { SnippetEntity, SnippetFileEntity, SnippetsRepository } from '@app/snippets';
import { In } from 'typeorm';
import { VISIBILITY_LEVELS, visibilityOfLevel } from '../archive/archive-format';
import type { NdjsonWriter } from '../archive/ndjson';
import { eachPage } from './export-pages';
import { NestedNotes } from './notes.nested';
import { array, date, InvalidRecord, iso, Row, str } from './record-fields';
import type { RelationExportContext, RelationImportContext, TransferRelation } from './transfer-relation';

/** `snippets`, with `content` and `file_name` (the first file), a `files` array for multi-file snippets, and their notes and award emoji. */
@Injectable()
export class SnippetsRelation implements TransferRelation {
  readonly name = 'snippets';

  constructor(
    private readonly snippets: SnippetsRepository,
    private readonly notes: NestedNotes,
  ) {}

  export(ctx: RelationExportContext, writer: NdjsonWriter): Promise<void> {
    const projectId = ctx.project.id;
    return eachPage(ctx.manager, SnippetEntity, { projectId }, async (snippets) => {
      const files = snippets.length
        ? await ctx.manager.find(SnippetFileEntity, { where: { snippetId: In(snippets.map((s) => s.id)) }, order: { position: 'ASC' } })
        : [];
      const nested = await this.notes.export(
        ctx.manager,
        'Snippet',
        snippets.map((s) => s.id),
      );
      for (const s of snippets) {
        const own = files.filter((f) => f.snippetId === s.id);
        await writer.write({
          id: s.id,
          title: s.title,
          description: s.description,
          author_id: s.authorId,
          project_id: projectId,
          visibility_level: VISIBILITY_LEVELS[s.visibility],
          created_at: iso(s.createdAt),
          updated_at: iso(s.updatedAt),
          file_name: own[0]?.path ?? null,
          content: own[0]?.content ?? null,
          files: own.map((f) => ({ path: f.path, content: f.content })),
          notes: nested.notes.get(s.id) ?? [],
          award_emoji: nested.awards.get(s.id) ?? [],
        });
      }
    });
  }

  async import(ctx: RelationImportContext, records: Row[]): Promise<void> {
    const ids: number[] = [];
    for (const record of records) {
      const title = str(record.title, 255);
      if (!title) throw new InvalidRecord("Validation failed: Title can't be blank");
      const created = date(record.created_at) ?? new Date();
      const files = array(record.files).length ? array(record.files) : [{ path: record.file_name, content: record.content }];
      const rows = files
        .map((file, position) => ({ position, path: str(file.path, 255) ?? `snippetfile${position + 1}.txt`, content: str(file.content) ?? '' }))
        .filter((file, index, all) => all.findIndex((other) => other.path === file.path) === index);
      const id = await this.snippets.insertImported(
        ctx.tx,
        {
          projectId: ctx.project.id,
          authorId: ctx.author(record.author_id),
          title,
          description: str(record.description),
          visibility: visibilityOfLevel(record.visibility_level) ?? 'private',
          createdAt: created,
          updatedAt: date(record.updated_at) ?? created,
        },
        rows,
      );
      ids.push(id);
    }
    ctx.count('snippets', records.length);
    await this.notes.import(ctx, 'Snippet', records, ids);
  }
}
