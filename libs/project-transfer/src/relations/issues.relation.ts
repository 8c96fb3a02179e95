import { Injectable } from '@nestjs/common';
import { IssueEntity, IssuesRepository } from '@app/issues';
import type { NdjsonWriter } from '../archive/ndjson';
import { eachPage } from './export-pages';
import { IssuableRecords } from './issuable';
import { labelsByTitle } from './labels.relation';
import { bool, int, iso, oneOf, Row } from './record-fields';
import type { RelationExportContext, RelationImportContext, TransferRelation } from './transfer-relation';

/** `issues`, with their `notes`, `award_emoji`, `label_links`, `milestone` and `issue_assignees` nested. */
@Injectable()
export class IssuesRelation implements TransferRelation {
  readonly name = 'issues';

  constructor(
    private readonly issues: IssuesRepository,
    private readonly issuables: IssuableRecords,
  ) {}

  async export(ctx: RelationExportContext, writer: NdjsonWriter): Promise<void> {
    const projectId = ctx.project.id;
    const labels = await labelsByTitle(ctx.manager, projectId);
    return eachPage(ctx.manager, IssueEntity, { projectId }, async (issues) => {
      const page = await this.issuables.exportPage(ctx.manager, 'Issue', issues, labels);
      for (const i of issues) {
        await writer.write({
          id: i.id,
          iid: i.iid,
          title: i.title,
          description: i.description,
          state: i.state,
          author_id: i.authorId,
          project_id: projectId,
          confidential: i.confidential,
          issue_type: i.issueType,
          weight: i.weight,
          closed_at: iso(i.closedAt),
          closed_by_id: i.closedById,
          created_at: iso(i.createdAt),
          updated_at: iso(i.updatedAt),
          milestone: page.milestone(i),
          label_links: page.labelLinks(i),
          issue_assignees: i.assigneeIds.map((userId) => ({ user_id: userId })),
          notes: page.notes(i),
          award_emoji: page.awards(i),
        });
      }
    });
  }

  async import(ctx: RelationImportContext, records: Row[]): Promise<void> {
    const rows = [];
    for (const record of records) {
      const common = await this.issuables.importCommon(ctx, 'issues', record, record.issue_assignees);
      rows.push({
        ...common,
        state: oneOf(record.state, ['opened', 'closed'], 'opened'),
        confidential: bool(record.confidential),
        issueType: oneOf(record.issue_type, ['issue', 'incident', 'test_case', 'task'], 'issue'),
        weight: int(record.weight),
        closedById: ctx.user(record.closed_by_id),
      });
      ctx.track('issues', common.iid);
    }
    const ids = await this.issues.insertImported(ctx.tx, rows);
    ctx.count('issues', rows.length);
    await this.issuables.notes.import(ctx, 'Issue', records, ids);
  }
}
