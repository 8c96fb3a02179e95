import { Injectable } from '@nestjs/common';
import { MergeRequestEntity, MergeRequestsRepository } from '@app/issues';
import type { NdjsonWriter } from '../archive/ndjson';
import { eachPage } from './export-pages';
import { IssuableRecords } from './issuable';
import { labelsByTitle } from './labels.relation';
import { date, InvalidRecord, iso, oneOf, Row, str } from './record-fields';
import type { RelationExportContext, RelationImportContext, TransferRelation } from './transfer-relation';

const sha = (value: unknown): string | null => (typeof value === 'string' && /^[0-9a-f]{40}$/.test(value) ? value : null);

/** `merge_requests`, with their `notes`, `award_emoji`, `label_links`, `milestone`, `merge_request_assignees` and `metrics` nested. */
@Injectable()
export class MergeRequestsRelation implements TransferRelation {
  readonly name = 'merge_requests';

  constructor(
    private readonly mergeRequests: MergeRequestsRepository,
    private readonly issuables: IssuableRecords,
  ) {}

  async export(ctx: RelationExportContext, writer: NdjsonWriter): Promise<void> {
    const projectId = ctx.project.id;
    const labels = await labelsByTitle(ctx.manager, projectId);
    return eachPage(ctx.manager, MergeRequestEntity, { projectId }, async (mrs) => {
      const page = await this.issuables.exportPage(ctx.manager, 'MergeRequest', mrs, labels);
      for (const m of mrs) {
        await writer.write({
          id: m.id,
          iid: m.iid,
          title: m.title,
          description: m.description,
          state: m.state,
          source_branch: m.sourceBranch,
          target_branch: m.targetBranch,
          source_project_id: projectId,
          target_project_id: projectId,
          author_id: m.authorId,
          merge_commit_sha: m.mergeCommitSha,
          squash_commit_sha: m.squashCommitSha,
          created_at: iso(m.createdAt),
          updated_at: iso(m.updatedAt),
          milestone: page.milestone(m),
          label_links: page.labelLinks(m),
          merge_request_assignees: m.assigneeIds.map((userId) => ({ user_id: userId })),
          metrics: { merged_by_id: m.mergedById, merged_at: iso(m.mergedAt), latest_closed_by_id: m.closedById, latest_closed_at: iso(m.closedAt) },
          notes: page.notes(m),
          award_emoji: page.awards(m),
        });
      }
    });
  }

  async import(ctx: RelationImportContext, records: Row[]): Promise<void> {
    const rows = [];
    for (const record of records) {
      const common = await this.issuables.importCommon(ctx, 'merge_requests', record, record.merge_request_assignees);
      const metrics = (record.metrics ?? {}) as Row;
      const sourceBranch = str(record.source_branch, 255);
      const targetBranch = str(record.target_branch, 255);
      if (!sourceBranch || !targetBranch) throw new InvalidRecord("Validation failed: Source branch can't be blank");
      rows.push({
        ...common,
        state: oneOf(record.state, ['opened', 'closed', 'merged', 'locked'], 'opened'),
        sourceBranch,
        targetBranch,
        mergedById: ctx.user(metrics.merged_by_id),
        mergedAt: date(metrics.merged_at),
        closedById: ctx.user(metrics.latest_closed_by_id),
        mergeCommitSha: sha(record.merge_commit_sha),
        squashCommitSha: sha(record.squash_commit_sha),
      });
      ctx.track('merge_requests', common.iid);
    }
    const ids = await this.mergeRequests.insertImported(ctx.tx, rows);
    ctx.count('merge_requests', rows.length);
    await this.issuables.notes.import(ctx, 'MergeRequest', records, ids);
  }
}
