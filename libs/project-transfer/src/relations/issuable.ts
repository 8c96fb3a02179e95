import { Injectable } from '@nestjs/common';
import { LabelEntity, MilestoneEntity } from '@app/issues';
import type { EntityManager } from 'typeorm';
import { byId } from './export-pages';
import { LabelsRelation, labelLinks } from './labels.relation';
import { MilestonesRelation, milestoneRecord } from './milestones.relation';
import { NestedNotes } from './notes.nested';
import { array, date, int, InvalidRecord, Row, str } from './record-fields';
import type { RelationImportContext } from './transfer-relation';

/** Sub-relations of issues and merge requests this service reads; other nested arrays are skipped and counted. */
const NESTED_HANDLED = new Set(['notes', 'award_emoji', 'label_links', 'issue_assignees', 'merge_request_assignees']);

/** What issues and merge requests share, both ways: label links, milestone, assignees, notes and award emoji. */
@Injectable()
export class IssuableRecords {
  constructor(
    private readonly labels: LabelsRelation,
    private readonly milestones: MilestonesRelation,
    readonly notes: NestedNotes,
  ) {}

  /** The nested records of one page of issues or merge requests, and what to write each with. */
  async exportPage(
    manager: EntityManager,
    type: 'Issue' | 'MergeRequest',
    rows: Array<{ id: number; milestoneId: number | null; labels: string[] }>,
    labels: Map<string, LabelEntity>,
  ) {
    const nested = await this.notes.export(
      manager,
      type,
      rows.map((r) => r.id),
    );
    const milestones = await byId(
      manager,
      MilestoneEntity,
      rows.map((r) => r.milestoneId),
    );
    return {
      milestone: (row: { milestoneId: number | null }) =>
        row.milestoneId && milestones.get(row.milestoneId) ? milestoneRecord(milestones.get(row.milestoneId)!) : null,
      labelLinks: (row: { labels: string[] }) => labelLinks(row.labels, labels, type),
      notes: (row: { id: number }) => nested.notes.get(row.id) ?? [],
      awards: (row: { id: number }) => nested.awards.get(row.id) ?? [],
    };
  }

  /** The columns issues and merge requests share, from an archive record (labels and milestone created when missing). */
  async importCommon(ctx: RelationImportContext, relation: 'issues' | 'merge_requests', record: Row, assignees: unknown) {
    const iid = int(record.iid);
    const title = str(record.title, 255);
    if (iid === null || iid < 1) throw new InvalidRecord("Validation failed: Iid can't be blank");
    if (!title) throw new InvalidRecord("Validation failed: Title can't be blank");
    const created = date(record.created_at) ?? new Date();
    const assigneeIds = array(assignees)
      .map((a) => ctx.user(a.user_id))
      .filter((id): id is number => id !== null);
    const common = {
      iid,
      projectId: ctx.project.id,
      title,
      description: str(record.description),
      authorId: ctx.author(record.author_id),
      assigneeIds: [...new Set(assigneeIds)],
      labels: await this.labelsOf(ctx, record),
      milestoneId: await this.milestoneOf(ctx, record),
      closedAt: date(record.closed_at),
      createdAt: created,
      updatedAt: date(record.updated_at) ?? created,
    };
    for (const [key, value] of Object.entries(record))
      if (Array.isArray(value) && value.length > 0 && !NESTED_HANDLED.has(key)) ctx.skip(`${relation}.${key}`, value.length);
    return common;
  }

  private async labelsOf(ctx: RelationImportContext, record: Row): Promise<string[]> {
    const titles: string[] = [];
    for (const link of array(record.label_links)) {
      const label = (link.label ?? {}) as Row;
      const title = str(label.title, 255);
      if (!title) continue;
      await this.labels.take(ctx, label);
      if (!titles.includes(title)) titles.push(title);
    }
    return titles;
  }

  private async milestoneOf(ctx: RelationImportContext, record: Row): Promise<number | null> {
    const milestone = record.milestone;
    if (typeof milestone !== 'object' || milestone === null) return null;
    return this.milestones.take(ctx, milestone as Row);
  }
}
