import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** A merge request with its project and namespace, as a merge request hook payload shows them. */
export interface MergeRequestHookRow {
  mr_id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  state: string;
  source_branch: string;
  target_branch: string;
  author_id: number;
  assignee_ids: number[];
  labels: string[];
  milestone_id: number | null;
  merge_commit_sha: string | null;
  created_at: Date;
  updated_at: Date;
  project_name: string;
  project_path: string;
  project_description: string | null;
  visibility: string;
  default_branch: string | null;
  namespace_name: string;
  namespace_full_path: string;
}

/** A user as a hook payload's `user` shows them. */
export interface HookUserRow {
  id: number;
  name: string;
  username: string;
  email: string;
}

/** The reads that complete merge request hook payloads at dispatch time, one statement per kind for a batch. */
@Injectable()
export class MergeRequestHookDataRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** These merge requests (those that exist) with their project and namespace. */
  async mergeRequests(ids: number[]): Promise<MergeRequestHookRow[]> {
    if (ids.length === 0) return [];
    return this.dataSource.query(
      `SELECT m.id AS mr_id, m.iid, m.project_id, m.title, m.description, m.state, m.source_branch, m.target_branch, m.author_id, m.assignee_ids,
              m.labels, m.milestone_id, m.merge_commit_sha, m.created_at, m.updated_at,
              p.name AS project_name, p.path AS project_path, p.description AS project_description, p.visibility, p.default_branch,
              n.name AS namespace_name, n.full_path AS namespace_full_path
         FROM merge_requests m JOIN projects p ON p.id = m.project_id JOIN namespaces n ON n.id = p.namespace_id
        WHERE m.id = ANY($1)`,
      [ids],
    );
  }

  /** These users (those that exist). */
  async users(ids: number[]): Promise<HookUserRow[]> {
    if (ids.length === 0) return [];
    return this.dataSource.query(`SELECT id, name, username, email FROM users WHERE id = ANY($1)`, [ids]);
  }
}
