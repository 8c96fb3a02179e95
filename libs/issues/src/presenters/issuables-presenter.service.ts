import { Inject, Injectable, Optional } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { tierAtLeast } from '@app/api';
import { presentUserSummary, UsersRepository } from '@app/identity';
import type { ProjectWithNamespace } from '@app/namespaces';
import { IssueEntity } from '../entities/issue.entity';
import { MergeRequestEntity } from '../entities/merge-request.entity';
import { MilestoneEntity } from '../entities/milestone.entity';
import { MERGE_REQUEST_APPROVALS, MergeRequestApprovals } from '../ports/merge-request-approvals';
import { MERGE_REQUEST_GIT, MergeRequestGit, MergeRequestGitStatus } from '../ports/merge-request-git';
import { IterationsRepository } from '../repositories/iterations.repository';
import { MilestonesRepository } from '../repositories/milestones.repository';
import { presentIteration } from './iteration.presenter';
import { presentMilestone } from './milestone.presenter';

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);
const DRAFT = /^(\[draft\]|\(draft\)|draft:|draft\s-\s)/i;

/** GitLab's `detailed_merge_status`: state, draft, then git (conflicts, rebase), then approvals. */
function detailedMergeStatus(mr: MergeRequestEntity, draft: boolean, status: MergeRequestGitStatus | undefined, unapproved: boolean): string {
  if (mr.state !== 'opened') return 'not_open';
  if (draft) return 'draft_status';
  const git = status?.detailedMergeStatus ?? 'mergeable';
  return git === 'mergeable' && unapproved ? 'not_approved' : git;
}

/** Issues and merge requests in GitLab's shapes, with their users, milestones and iterations loaded in batches. */
@Injectable()
export class IssuablesPresenter {
  constructor(
    private readonly users: UsersRepository,
    private readonly milestones: MilestonesRepository,
    private readonly iterations: IterationsRepository,
    private readonly config: AppConfig,
    @Optional() @Inject(MERGE_REQUEST_GIT) private readonly git?: MergeRequestGit,
    @Optional() @Inject(MERGE_REQUEST_APPROVALS) private readonly approvals?: MergeRequestApprovals,
  ) {}

  private get externalUrl(): string {
    return this.config.http.externalUrl;
  }

  async issues(issues: IssueEntity[], projects: Map<number, ProjectWithNamespace>): Promise<Record<string, unknown>[]> {
    const related = await this.load(issues);
    const premium = tierAtLeast(this.config.tier, 'premium');
    return issues.map((issue) => {
      const project = projects.get(issue.projectId)!;
      const assignees = issue.assigneeIds.map((id) => related.users.get(id)).filter((u): u is Record<string, unknown> => !!u);
      const milestone = issue.milestoneId ? related.milestones.get(issue.milestoneId) : undefined;
      const view: Record<string, unknown> = {
        id: issue.id,
        iid: issue.iid,
        project_id: issue.projectId,
        title: issue.title,
        description: issue.description,
        state: issue.state,
        created_at: iso(issue.createdAt),
        updated_at: iso(issue.updatedAt),
        closed_at: iso(issue.closedAt),
        closed_by: issue.closedById ? (related.users.get(issue.closedById) ?? null) : null,
        labels: issue.labels,
        milestone: milestone ? this.milestone(milestone, project) : null,
        assignees,
        author: related.users.get(issue.authorId) ?? null,
        type: issue.issueType.toUpperCase(),
        assignee: assignees[0] ?? null,
        user_notes_count: 0,
        merge_requests_count: 0,
        upvotes: 0,
        downvotes: 0,
        due_date: null,
        confidential: issue.confidential,
        discussion_locked: null,
        issue_type: issue.issueType,
        web_url: `${this.externalUrl}/${project.namespace.fullPath}/${project.path}/-/issues/${issue.iid}`,
        time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
        task_completion_status: { count: 0, completed_count: 0 },
        has_tasks: false,
        references: {
          short: `#${issue.iid}`,
          relative: `#${issue.iid}`,
          full: `${project.namespace.fullPath}/${project.path}#${issue.iid}`,
        },
        severity: issue.severity.toUpperCase(),
      };
      if (premium) {
        view.weight = issue.weight;
        const iteration = issue.iterationId ? related.iterations.get(issue.iterationId) : undefined;
        view.iteration = iteration ? presentIteration(iteration, this.externalUrl, related.iterationGroupPaths) : null;
      }
      return view;
    });
  }

  async mergeRequests(mrs: MergeRequestEntity[], projects: Map<number, ProjectWithNamespace>): Promise<Record<string, unknown>[]> {
    const [related, git, unapproved] = await Promise.all([
      this.load(mrs),
      this.gitStatuses(mrs, projects),
      this.approvals?.unapproved(mrs) ?? new Set<number>(),
    ]);
    return mrs.map((mr) => {
      const project = projects.get(mr.projectId)!;
      const status = git.get(mr.id);
      const draft = DRAFT.test(mr.title);
      const assignees = mr.assigneeIds.map((id) => related.users.get(id)).filter((u): u is Record<string, unknown> => !!u);
      const milestone = mr.milestoneId ? related.milestones.get(mr.milestoneId) : undefined;
      return {
        id: mr.id,
        iid: mr.iid,
        project_id: mr.projectId,
        title: mr.title,
        description: mr.description,
        state: mr.state,
        created_at: iso(mr.createdAt),
        updated_at: iso(mr.updatedAt),
        merged_by: mr.mergedById ? (related.users.get(mr.mergedById) ?? null) : null,
        merge_user: mr.mergedById ? (related.users.get(mr.mergedById) ?? null) : null,
        merged_at: iso(mr.mergedAt ?? null),
        closed_by: mr.closedById ? (related.users.get(mr.closedById) ?? null) : null,
        closed_at: iso(mr.closedAt),
        target_branch: mr.targetBranch,
        source_branch: mr.sourceBranch,
        user_notes_count: 0,
        upvotes: 0,
        downvotes: 0,
        author: related.users.get(mr.authorId) ?? null,
        assignees,
        assignee: assignees[0] ?? null,
        reviewers: [],
        source_project_id: mr.projectId,
        target_project_id: mr.projectId,
        labels: mr.labels,
        draft,
        work_in_progress: draft,
        milestone: milestone ? this.milestone(milestone, project) : null,
        merge_when_pipeline_succeeds: false,
        merge_status: status?.mergeStatus ?? 'can_be_merged',
        detailed_merge_status: detailedMergeStatus(mr, draft, status, unapproved.has(mr.id)),
        sha: status ? status.sha : (mr.diffHeadSha ?? null),
        merge_commit_sha: mr.mergeCommitSha ?? null,
        squash_commit_sha: mr.squashCommitSha ?? null,
        discussion_locked: null,
        should_remove_source_branch: null,
        force_remove_source_branch: false,
        reference: `!${mr.iid}`,
        references: {
          short: `!${mr.iid}`,
          relative: `!${mr.iid}`,
          full: `${project.namespace.fullPath}/${project.path}!${mr.iid}`,
        },
        web_url: `${this.externalUrl}/${project.namespace.fullPath}/${project.path}/-/merge_requests/${mr.iid}`,
        time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
        squash: false,
        task_completion_status: { count: 0, completed_count: 0 },
        has_conflicts: status?.hasConflicts ?? false,
        diff_refs: diffRefsOf(mr, status),
        blocking_discussions_resolved: true,
      };
    });
  }

  /**
   * The git status of the open merge requests, by id (merged and closed ones keep the stored
   * values); empty without a repository module.
   */
  private async gitStatuses(mrs: MergeRequestEntity[], projects: Map<number, ProjectWithNamespace>): Promise<Map<number, MergeRequestGitStatus>> {
    const statuses = new Map<number, MergeRequestGitStatus>();
    const git = this.git;
    if (!git) return statuses;
    const byProject = new Map<number, MergeRequestEntity[]>();
    for (const mr of mrs) {
      if (mr.state !== 'opened' || !projects.has(mr.projectId)) continue;
      byProject.set(mr.projectId, [...(byProject.get(mr.projectId) ?? []), mr]);
    }
    for (const [projectId, open] of byProject) {
      const computed = await git.statuses(projects.get(projectId)!, open);
      open.forEach((mr, i) => statuses.set(mr.id, computed[i]));
    }
    return statuses;
  }

  private milestone(milestone: MilestoneEntity, project: ProjectWithNamespace): Record<string, unknown> {
    if (milestone.projectId === project.id) return presentMilestone(milestone, this.externalUrl, project);
    const inParent = milestone.groupId === project.namespace.id;
    return presentMilestone(milestone, this.externalUrl, inParent ? { groupFullPath: project.namespace.fullPath } : undefined);
  }

  private async load(rows: Array<IssueEntity | MergeRequestEntity>) {
    const userIds = new Set<number>();
    const milestoneIds = new Set<number>();
    const iterationIds = new Set<number>();
    for (const row of rows) {
      userIds.add(row.authorId);
      row.assigneeIds.forEach((id) => userIds.add(id));
      if (row.closedById) userIds.add(row.closedById);
      if ('mergedById' in row && row.mergedById) userIds.add(row.mergedById);
      if (row.milestoneId) milestoneIds.add(row.milestoneId);
      if ('iterationId' in row && row.iterationId) iterationIds.add(row.iterationId);
    }
    const [users, milestones, iterations] = await Promise.all([
      this.users.mapByIds([...userIds]),
      this.milestones.findByIds(milestoneIds),
      this.iterations.findByIds(iterationIds),
    ]);
    return {
      users: new Map([...users.values()].map((u) => [u.id, presentUserSummary(u, this.externalUrl)])),
      milestones: new Map(milestones.map((m) => [m.id, m])),
      iterations: new Map(iterations.map((i) => [i.id, i])),
      iterationGroupPaths: await this.iterations.groupPaths(iterations.map((i) => i.groupId)),
    };
  }
}

/** `diff_refs`: live for an open merge request, as stored at the merge for a merged one (the source branch may be gone). */
function diffRefsOf(mr: MergeRequestEntity, status: MergeRequestGitStatus | undefined): Record<string, string> | null {
  if (status) return status.diffRefs ? { base_sha: status.diffRefs.baseSha, head_sha: status.diffRefs.headSha, start_sha: status.diffRefs.startSha } : null;
  if (mr.diffHeadSha && mr.diffBaseSha && mr.diffStartSha) return { base_sha: mr.diffBaseSha, head_sha: mr.diffHeadSha, start_sha: mr.diffStartSha };
  return null;
}
