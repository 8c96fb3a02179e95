import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { CataloguedEvent } from '@app/messaging';
import type { Push } from '@app/repository';

/** What a merge request pipeline needs of its merge request (same-project merge requests). */
export interface MergeRequestForPipeline {
  id: number;
  iid: number;
  projectId: number;
  title: string;
  description: string | null;
  sourceBranch: string;
  targetBranch: string;
  labels: string[];
  assigneeUsernames: string[];
  milestoneTitle: string | null;
}

/** The merge request an event asks a pipeline for (by id): opened and reopened ones (GitLab's `MergeRequests::CreatePipelineService` callers). */
export const mergeRequestPipelineRequest = (event: CataloguedEvent<'merge_request.opened' | 'merge_request.reopened'>): number => event.data.merge_request.id;

/** The branch a push created or moved (a deletion is not a push that updates a merge request), or null. */
export function pushedBranch(push: Push): { projectId: number; branch: string; sha: string } | null {
  if (push.projectId === null || push.branch === null || push.deleted) return null;
  return { projectId: push.projectId, branch: push.branch, sha: push.after };
}

/**
 * The `trigger_event_id` of the pipeline of one merge request for one event (a push updates
 * several merge requests, and the push pipeline holds the event's own id): a UUID derived from
 * both, so that a redelivered event creates no second pipeline.
 */
export function mergeRequestTriggerId(eventId: string, mergeRequestId: number): string {
  const hex = createHash('sha256').update(`merge_request_event:${eventId}:${mergeRequestId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The full ref of a merge request's head, the `ref` of its pipelines. */
export const mergeRequestRef = (iid: number): string => `refs/merge-requests/${iid}/head`;

interface MergeRequestRow {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  source_branch: string;
  target_branch: string;
  labels: string[];
  assignees: string[];
  milestone: string | null;
}

/** Reads open merge requests for pipelines (the merge request tables are the issues domain's; read only). */
@Injectable()
export class MergeRequestPipelineSources {
  constructor(private readonly dataSource: DataSource) {}

  private async query(where: string, params: unknown[], openOnly = true): Promise<MergeRequestForPipeline[]> {
    const rows = (await this.dataSource.query(
      `SELECT mr.id, mr.iid, mr.project_id, mr.title, mr.description, mr.source_branch, mr.target_branch, mr.labels,
              COALESCE((SELECT array_agg(u.username ORDER BY u.username) FROM users u WHERE u.id = ANY(mr.assignee_ids)), '{}') AS assignees,
              (SELECT m.title FROM milestones m WHERE m.id = mr.milestone_id) AS milestone
         FROM merge_requests mr WHERE ${openOnly ? "mr.state = 'opened' AND " : ''}${where} ORDER BY mr.id`,
      params,
    )) as MergeRequestRow[];
    return rows.map((row) => ({
      id: row.id,
      iid: row.iid,
      projectId: row.project_id,
      title: row.title,
      description: row.description,
      sourceBranch: row.source_branch,
      targetBranch: row.target_branch,
      labels: row.labels,
      assigneeUsernames: row.assignees,
      milestoneTitle: row.milestone,
    }));
  }

  async openById(id: number): Promise<MergeRequestForPipeline | null> {
    return (await this.query('mr.id = $1', [id]))[0] ?? null;
  }

  /** The merge request `iid` of a project, in any state (the merge request pipelines endpoints). */
  async byIid(projectId: number, iid: number): Promise<MergeRequestForPipeline | null> {
    return (await this.query('mr.project_id = $1 AND mr.iid = $2', [projectId, iid], false))[0] ?? null;
  }

  async openWithSourceBranch(projectId: number, branch: string): Promise<MergeRequestForPipeline[]> {
    return this.query('mr.project_id = $1 AND mr.source_branch = $2', [projectId, branch]);
  }
}
