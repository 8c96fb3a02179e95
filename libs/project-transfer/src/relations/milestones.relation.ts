import { Injectable } from '@nestjs/common';
import { MilestoneEntity, MilestonesRepository } from '@app/issues';
import type { NdjsonWriter } from '../archive/ndjson';
import { eachPage } from './export-pages';
import { date, day, int, InvalidRecord, iso, oneOf, Row, str } from './record-fields';
import type { RelationExportContext, RelationImportContext, TransferRelation } from './transfer-relation';

/**
 * `milestones`: the project's milestones. Issues and merge requests nest theirs by value
 * (`milestoneRecord`); on import it is matched by title, or created (`take`).
 */
@Injectable()
export class MilestonesRelation implements TransferRelation {
  readonly name = 'milestones';

  constructor(private readonly milestones: MilestonesRepository) {}

  export(ctx: RelationExportContext, writer: NdjsonWriter): Promise<void> {
    return eachPage(ctx.manager, MilestoneEntity, { projectId: ctx.project.id }, async (milestones) => {
      for (const m of milestones) await writer.write(milestoneRecord(m));
    });
  }

  async import(ctx: RelationImportContext, records: Row[]): Promise<void> {
    for (const record of records) await this.take(ctx, record);
  }

  /** The id of the milestone of this title, created from `record` when the import has none yet. */
  async take(ctx: RelationImportContext, record: Row): Promise<number> {
    const title = str(record.title, 255);
    if (!title) throw new InvalidRecord("Validation failed: Title can't be blank");
    const known = ctx.milestones.get(title);
    if (known !== undefined) return known;
    const iid = int(record.iid) ?? ctx.lastIid('milestones') + 1;
    const created = date(record.created_at) ?? undefined;
    const id = await this.milestones.insertImported(ctx.tx, {
      iid,
      projectId: ctx.project.id,
      groupId: null,
      title,
      description: str(record.description),
      state: oneOf(record.state, ['active', 'closed'], 'active') as never,
      dueDate: day(record.due_date),
      startDate: day(record.start_date),
      createdAt: created,
      updatedAt: date(record.updated_at) ?? created,
    });
    ctx.milestones.set(title, id);
    ctx.track('milestones', iid);
    ctx.count('milestones');
    return id;
  }
}

export function milestoneRecord(m: MilestoneEntity): Record<string, unknown> {
  return {
    id: m.id,
    iid: m.iid,
    title: m.title,
    description: m.description,
    state: m.state,
    due_date: m.dueDate,
    start_date: m.startDate,
    project_id: m.projectId,
    created_at: iso(m.createdAt),
    updated_at: iso(m.updatedAt),
  };
}
