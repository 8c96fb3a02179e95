import { Injectable } from '@nestjs/common';
import { LabelEntity, LabelsRepository } from '@app/issues';
import type { EntityManager } from 'typeorm';
import type { NdjsonWriter } from '../archive/ndjson';
import { eachPage } from './export-pages';
import { date, InvalidRecord, iso, Row, str } from './record-fields';
import type { RelationExportContext, RelationImportContext, TransferRelation } from './transfer-relation';

/**
 * `labels`: the project's labels. Issues and merge requests carry theirs by value in
 * `label_links` (`labelLinks`); a label they name is created on import when missing (`take`).
 */
@Injectable()
export class LabelsRelation implements TransferRelation {
  readonly name = 'labels';

  constructor(private readonly labels: LabelsRepository) {}

  export(ctx: RelationExportContext, writer: NdjsonWriter): Promise<void> {
    const projectId = ctx.project.id;
    return eachPage(ctx.manager, LabelEntity, { projectId }, async (labels) => {
      for (const l of labels)
        await writer.write({
          id: l.id,
          title: l.title,
          color: l.color,
          project_id: projectId,
          created_at: iso(l.createdAt),
          updated_at: iso(l.updatedAt),
          template: false,
          description: l.description,
          type: 'ProjectLabel',
          priorities: [],
        });
    });
  }

  async import(ctx: RelationImportContext, records: Row[]): Promise<void> {
    for (const record of records) await this.take(ctx, record);
  }

  /** The id of the label of this title, created from `record` when the import has none yet. */
  async take(ctx: RelationImportContext, record: Row): Promise<number> {
    const title = str(record.title, 255);
    if (!title) throw new InvalidRecord("Validation failed: Title can't be blank");
    const known = ctx.labels.get(title);
    if (known !== undefined) return known;
    const color = typeof record.color === 'string' && /^#[0-9a-fA-F]{6}$/.test(record.color) ? record.color : '#6699cc';
    const created = date(record.created_at) ?? undefined;
    const id = await this.labels.insertImported(ctx.tx, {
      projectId: ctx.project.id,
      groupId: null,
      title,
      color,
      description: str(record.description),
      createdAt: created,
      updatedAt: date(record.updated_at) ?? created,
    });
    ctx.labels.set(title, id);
    ctx.count('labels');
    return id;
  }
}

/** The project's labels by title (label counts are small next to issues). */
export async function labelsByTitle(manager: EntityManager, projectId: number): Promise<Map<string, LabelEntity>> {
  const rows = await manager.find(LabelEntity, { where: { projectId } });
  return new Map(rows.map((l) => [l.title, l]));
}

/** `label_links` of an issue or merge request: its labels (kept by title) by value. */
export function labelLinks(titles: string[], labels: Map<string, LabelEntity>, targetType: string): Record<string, unknown>[] {
  return titles.map((title) => {
    const label = labels.get(title);
    return {
      target_type: targetType,
      label: { title, color: label?.color ?? '#6699cc', description: label?.description ?? null, type: 'ProjectLabel', project_id: label?.projectId ?? null },
    };
  });
}
