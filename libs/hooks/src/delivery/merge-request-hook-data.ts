import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { MergeRequestHookDataRepository } from './merge-request-hook-data.repository';

const VISIBILITY_LEVELS: Record<string, number> = { private: 0, internal: 10, public: 20 };
const hookTime = (date: Date | null): string | null => (date ? date.toISOString().replace(/\.\d{3}Z$/, 'Z') : null);

/**
 * Completes merge request hook payloads (GitLab's `user`, `project`, `object_attributes`,
 * `labels`, `repository`) from the database at dispatch time, one query per kind for a whole
 * batch of events. What the event does not know is read as the merge request is now.
 */
@Injectable()
export class MergeRequestHookData {
  constructor(
    private readonly rows: MergeRequestHookDataRepository,
    private readonly config: AppConfig,
  ) {}

  async enrich(payloads: Array<{ payload: Record<string, unknown>; actor: number | null }>): Promise<void> {
    if (payloads.length === 0) return;
    const mrIds = [...new Set(payloads.map((p) => Number((p.payload.object_attributes as Record<string, unknown>)?.id)).filter(Number.isSafeInteger))];
    const actorIds = [...new Set(payloads.map((p) => p.actor).filter((id): id is number => id !== null))];
    const [rows, users] = await Promise.all([this.rows.mergeRequests(mrIds), this.rows.users(actorIds)]);
    const byMr = new Map(rows.map((row) => [row.mr_id, row]));
    const byUser = new Map(users.map((user) => [user.id, user]));
    const base = this.config.http.externalUrl;
    const host = new URL(base).host;
    for (const { payload, actor } of payloads) {
      const attributes = payload.object_attributes as Record<string, unknown>;
      const user = actor === null ? undefined : byUser.get(actor);
      if (user) payload.user = { id: user.id, name: user.name, username: user.username, avatar_url: null, email: user.email };
      const row = byMr.get(Number(attributes.id));
      if (!row) continue;
      const path = `${row.namespace_full_path}/${row.project_path}`;
      const webUrl = `${base}/${path}`;
      const project = {
        id: row.project_id,
        name: row.project_name,
        description: row.project_description ?? '',
        web_url: webUrl,
        avatar_url: null,
        git_ssh_url: `git@${host}:${path}.git`,
        git_http_url: `${webUrl}.git`,
        namespace: row.namespace_name,
        visibility_level: VISIBILITY_LEVELS[row.visibility] ?? 0,
        path_with_namespace: path,
        default_branch: row.default_branch,
        homepage: webUrl,
        url: `git@${host}:${path}.git`,
        ssh_url: `git@${host}:${path}.git`,
        http_url: `${webUrl}.git`,
      };
      payload.project = project;
      payload.repository = { name: row.project_name, url: project.url, description: project.description, homepage: webUrl };
      payload.labels = row.labels.map((title) => ({ title }));
      payload.object_attributes = {
        id: row.mr_id,
        iid: row.iid,
        target_branch: row.target_branch,
        source_branch: row.source_branch,
        source_project_id: row.project_id,
        target_project_id: row.project_id,
        author_id: row.author_id,
        assignee_id: row.assignee_ids[0] ?? null,
        assignee_ids: row.assignee_ids,
        title: row.title,
        description: row.description ?? '',
        state: row.state,
        milestone_id: row.milestone_id,
        merge_commit_sha: row.merge_commit_sha,
        created_at: hookTime(row.created_at),
        updated_at: hookTime(row.updated_at),
        url: `${webUrl}/-/merge_requests/${row.iid}`,
        source: project,
        target: project,
        action: attributes.action,
      };
    }
  }
}
