import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { MergeRequestForPipeline } from './merge-request-pipelines';

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
