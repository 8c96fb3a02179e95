import { Injectable } from '@nestjs/common';
import { ACCESS_LEVELS } from '@app/namespaces';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { SnippetFileEntity } from '../entities/snippet-file.entity';
import { SnippetEntity } from '../entities/snippet.entity';
import type { SnippetViewer } from './snippet-access';

@Injectable()
export class SnippetsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The project's snippets the viewer may read (see `snippetReadable`), newest first. */
  visibleQuery(projectId: number, viewer: SnippetViewer | null, accessLevel: number): SelectQueryBuilder<SnippetEntity> {
    const qb = this.dataSource.manager.createQueryBuilder(SnippetEntity, 's').where('s.project_id = :projectId', { projectId });
    if (!viewer) qb.andWhere(`s.visibility = 'public'`);
    else if (!viewer.isAdmin && accessLevel < ACCESS_LEVELS.GUEST) {
      qb.andWhere(`(s.visibility = 'public' OR s.author_id = :uid${viewer.external ? '' : ` OR s.visibility = 'internal'`})`, { uid: viewer.id });
    }
    return qb.orderBy('s.id', 'DESC');
  }

  find(projectId: number, id: number, manager: EntityManager = this.dataSource.manager): Promise<SnippetEntity | null> {
    return manager.findOne(SnippetEntity, { where: { projectId, id }, relations: { files: true } });
  }

  /** The files of these snippets, in their order, by snippet id. */
  async files(snippetIds: number[]): Promise<Map<number, SnippetFileEntity[]>> {
    const result = new Map<number, SnippetFileEntity[]>(snippetIds.map((id) => [id, []]));
    if (snippetIds.length === 0) return result;
    const rows = await this.dataSource.manager
      .createQueryBuilder(SnippetFileEntity, 'f')
      .where('f.snippet_id IN (:...ids)', { ids: snippetIds })
      .orderBy('f.position', 'ASC')
      .getMany();
    for (const row of rows) result.get(row.snippetId)!.push(row);
    return result;
  }

  /** Saves the snippet and replaces its files with `files` (in order). */
  async save(tx: EntityManager, snippet: SnippetEntity, files: Array<{ path: string; content: string }>): Promise<SnippetEntity> {
    const { files: _files, ...columns } = snippet;
    const saved = await tx.getRepository(SnippetEntity).save(Object.assign(new SnippetEntity(), columns));
    await tx.delete(SnippetFileEntity, { snippetId: saved.id });
    saved.files = await tx
      .getRepository(SnippetFileEntity)
      .save(files.map((file, position) => Object.assign(new SnippetFileEntity(), { snippetId: saved.id, position, path: file.path, content: file.content })));
    return saved;
  }

  async delete(tx: EntityManager, id: number): Promise<boolean> {
    const result = await tx.delete(SnippetEntity, { id });
    return (result.affected ?? 0) > 0;
  }

  /** Stores a snippet read from a project export and its files, in the import's transaction; its id. */
  async insertImported(
    tx: EntityManager,
    snippet: QueryDeepPartialEntity<SnippetEntity>,
    files: Array<{ position: number; path: string; content: string }>,
  ): Promise<number> {
    const inserted = await tx.insert(SnippetEntity, snippet);
    const id = inserted.identifiers[0].id as number;
    if (files.length)
      await tx.insert(
        SnippetFileEntity,
        files.map((file) => ({ ...file, snippetId: id })),
      );
    return id;
  }
}
