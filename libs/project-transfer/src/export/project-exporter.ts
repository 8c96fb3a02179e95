import { Injectable } from '@nestjs/common';
import { BadgeEntity } from '@app/badges';
import { CiJobEntity, CiPipelineEntity, CiStageEntity } from '@app/ci';
import { UserEntity } from '@app/identity';
import { IssueEntity, LabelEntity, MergeRequestEntity, MilestoneEntity } from '@app/issues';
import { MemberEntity, ProjectWithNamespace } from '@app/namespaces';
import { AwardEmojiEntity, NoteEntity } from '@app/notes';
import { ProtectedBranchAccessLevelEntity, ProtectedBranchEntity, RepositoryStorage, runGit } from '@app/repository';
import { SnippetEntity, SnippetFileEntity } from '@app/snippets';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DataSource, In, MoreThan, ObjectLiteral, EntityTarget, FindOptionsWhere } from 'typeorm';
import { BUNDLE_FILE, EXPORT_FORMAT_VERSION, PROJECT_JSON, RELATIONS, RELATIONS_DIR, relationFile, VERSION_FILE, VISIBILITY_LEVELS } from '../archive/archive-format';
import { NdjsonWriter } from '../archive/ndjson';

/** Rows read per query: memory holds one page of a relation (and its nested records) at a time. */
export const EXPORT_PAGE = 500;
/** Pipelines per page: each carries its stages and jobs. */
export const PIPELINE_PAGE = 50;

const iso = (date: Date | null | undefined): string | null => (date ? new Date(date).toISOString() : null);

export interface ExportedTree {
  /** Files of the archive, in the order they are written to it. */
  files: string[];
  counts: Record<string, number>;
}

/**
 * Writes a project's export tree into `dir`: `VERSION`, `tree/project.json`, one NDJSON file per
 * relation (issues and merge requests with their notes, award emoji, label links, milestone and
 * assignees nested as GitLab nests them) and `project.bundle`. Relations are read page by page
 * (keyset on id) and written line by line; the bundle is written by git to disk.
 */
@Injectable()
export class ProjectExporter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly storage: RepositoryStorage,
  ) {}

  async write(project: ProjectWithNamespace, dir: string, options: { description: string | null; exporterIsAdmin: boolean }): Promise<ExportedTree> {
    await mkdir(join(dir, RELATIONS_DIR), { recursive: true });
    await writeFile(join(dir, VERSION_FILE), EXPORT_FORMAT_VERSION);
    await writeFile(join(dir, PROJECT_JSON), JSON.stringify(this.projectAttributes(project, options.description)));
    const counts: Record<string, number> = {};
    const files = [VERSION_FILE, PROJECT_JSON];
    for (const relation of RELATIONS) {
      const writer = new NdjsonWriter(join(dir, relationFile(relation)));
      try {
        await this.writeRelation(relation, project, writer, options);
      } finally {
        await writer.close();
      }
      counts[relation] = writer.count;
      files.push(relationFile(relation));
    }
    if (await this.writeBundle(project, join(dir, BUNDLE_FILE))) files.push(BUNDLE_FILE);
    return { files, counts };
  }

  private projectAttributes(project: ProjectWithNamespace, description: string | null): Record<string, unknown> {
    const settings = project.settings ?? {};
    return {
      description: description ?? project.description,
      visibility_level: VISIBILITY_LEVELS[project.visibility],
      archived: project.archived,
      merge_requests_ff_only_enabled: project.mergeMethod === 'ff',
      merge_requests_rebase_enabled: project.mergeMethod === 'rebase_merge',
      topics: project.topics,
      default_branch: project.defaultBranch,
      only_allow_merge_if_pipeline_succeeds: settings.only_allow_merge_if_pipeline_succeeds ?? false,
      only_allow_merge_if_all_discussions_are_resolved: settings.only_allow_merge_if_all_discussions_are_resolved ?? false,
      remove_source_branch_after_merge: settings.remove_source_branch_after_merge ?? true,
      project_feature: {
        issues_access_level: project.issuesEnabled ? 20 : 0,
        merge_requests_access_level: project.mergeRequestsEnabled ? 20 : 0,
      },
    };
  }

  private async writeRelation(relation: (typeof RELATIONS)[number], project: ProjectWithNamespace, writer: NdjsonWriter, options: { exporterIsAdmin: boolean }): Promise<void> {
    const projectId = project.id;
    switch (relation) {
      case 'project_members':
        return this.eachPage(MemberEntity, { sourceType: 'project', sourceId: projectId }, async (members) => {
          const users = await this.byId(UserEntity, members.map((m) => m.userId));
          for (const m of members) {
            const user = users.get(m.userId);
            await writer.write({
              id: m.id,
              access_level: m.accessLevel,
              source_id: projectId,
              source_type: 'Project',
              user_id: m.userId,
              notification_level: 3,
              created_at: iso(m.createdAt),
              updated_at: iso(m.updatedAt),
              created_by_id: m.createdById,
              expires_at: m.expiresAt,
              user: user ? { id: user.id, public_email: user.publicEmail || null, username: user.username, ...(options.exporterIsAdmin && { email: user.email }) } : null,
            });
          }
        });
      case 'labels':
        return this.eachPage(LabelEntity, { projectId }, async (labels) => {
          for (const l of labels) await writer.write({ id: l.id, title: l.title, color: l.color, project_id: projectId, created_at: iso(l.createdAt), updated_at: iso(l.updatedAt), template: false, description: l.description, type: 'ProjectLabel', priorities: [] });
        });
      case 'milestones':
        return this.eachPage(MilestoneEntity, { projectId }, async (milestones) => {
          for (const m of milestones) await writer.write(this.milestoneRecord(m));
        });
      case 'issues': {
        const labels = await this.labelsByTitle(projectId);
        return this.eachPage(IssueEntity, { projectId }, async (issues) => {
          const nested = await this.nested('Issue', issues.map((i) => i.id));
          const milestones = await this.byId(MilestoneEntity, issues.map((i) => i.milestoneId));
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
              milestone: i.milestoneId && milestones.get(i.milestoneId) ? this.milestoneRecord(milestones.get(i.milestoneId)!) : null,
              label_links: this.labelLinks(i.labels, labels, 'Issue'),
              issue_assignees: i.assigneeIds.map((userId) => ({ user_id: userId })),
              notes: nested.notes.get(i.id) ?? [],
              award_emoji: nested.awards.get(i.id) ?? [],
            });
          }
        });
      }
      case 'merge_requests': {
        const labels = await this.labelsByTitle(projectId);
        return this.eachPage(MergeRequestEntity, { projectId }, async (mrs) => {
          const nested = await this.nested('MergeRequest', mrs.map((m) => m.id));
          const milestones = await this.byId(MilestoneEntity, mrs.map((m) => m.milestoneId));
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
              milestone: m.milestoneId && milestones.get(m.milestoneId) ? this.milestoneRecord(milestones.get(m.milestoneId)!) : null,
              label_links: this.labelLinks(m.labels, labels, 'MergeRequest'),
              merge_request_assignees: m.assigneeIds.map((userId) => ({ user_id: userId })),
              metrics: { merged_by_id: m.mergedById, merged_at: iso(m.mergedAt), latest_closed_by_id: m.closedById, latest_closed_at: iso(m.closedAt) },
              notes: nested.notes.get(m.id) ?? [],
              award_emoji: nested.awards.get(m.id) ?? [],
            });
          }
        });
      }
      case 'protected_branches':
        return this.eachPage(ProtectedBranchEntity, { projectId }, async (branches) => {
          const levels = branches.length ? await this.dataSource.manager.find(ProtectedBranchAccessLevelEntity, { where: { protectedBranchId: In(branches.map((b) => b.id)) }, order: { id: 'ASC' } }) : [];
          for (const b of branches) {
            const of = (action: string) => levels.filter((l) => l.protectedBranchId === b.id && l.action === action).map((l) => ({ access_level: l.accessLevel, user_id: l.userId, group_id: l.groupId }));
            await writer.write({
              id: b.id,
              project_id: projectId,
              name: b.name,
              allow_force_push: b.allowForcePush,
              code_owner_approval_required: b.codeOwnerApprovalRequired,
              created_at: iso(b.createdAt),
              updated_at: iso(b.updatedAt),
              merge_access_levels: of('merge'),
              push_access_levels: of('push'),
              unprotect_access_levels: of('unprotect'),
            });
          }
        });
      case 'project_badges':
        return this.eachPage(BadgeEntity, { projectId }, async (badges) => {
          for (const b of badges) await writer.write({ id: b.id, link_url: b.linkUrl, image_url: b.imageUrl, project_id: projectId, group_id: null, created_at: iso(b.createdAt), updated_at: iso(b.updatedAt), type: 'ProjectBadge', name: b.name });
        });
      case 'snippets':
        return this.eachPage(SnippetEntity, { projectId }, async (snippets) => {
          const files = snippets.length ? await this.dataSource.manager.find(SnippetFileEntity, { where: { snippetId: In(snippets.map((s) => s.id)) }, order: { position: 'ASC' } }) : [];
          const nested = await this.nested('Snippet', snippets.map((s) => s.id));
          for (const s of snippets) {
            const own = files.filter((f) => f.snippetId === s.id);
            await writer.write({
              id: s.id,
              title: s.title,
              description: s.description,
              author_id: s.authorId,
              project_id: projectId,
              visibility_level: VISIBILITY_LEVELS[s.visibility],
              created_at: iso(s.createdAt),
              updated_at: iso(s.updatedAt),
              file_name: own[0]?.path ?? null,
              content: own[0]?.content ?? null,
              files: own.map((f) => ({ path: f.path, content: f.content })),
              notes: nested.notes.get(s.id) ?? [],
              award_emoji: nested.awards.get(s.id) ?? [],
            });
          }
        });
      case 'ci_pipelines':
        return this.eachPage(
          CiPipelineEntity,
          { projectId },
          async (pipelines) => {
            const ids = pipelines.map((p) => p.id);
            const stages = await this.dataSource.manager.find(CiStageEntity, { where: { pipelineId: In(ids) }, order: { position: 'ASC', id: 'ASC' } });
            const jobs = await this.dataSource.manager.find(CiJobEntity, { where: { pipelineId: In(ids) }, order: { id: 'ASC' } });
            for (const p of pipelines) {
              const own = jobs.filter((j) => j.pipelineId === p.id);
              await writer.write({
                id: p.id,
                iid: p.iid,
                project_id: projectId,
                ref: p.ref,
                sha: p.sha,
                before_sha: p.beforeSha,
                tag: p.tag,
                protected: p.protected,
                yaml_errors: p.yamlErrors,
                status: p.status,
                source: p.source,
                user_id: p.userId,
                failure_reason: p.failureReason,
                started_at: iso(p.startedAt),
                finished_at: iso(p.finishedAt),
                committed_at: iso(p.committedAt),
                duration: p.duration,
                created_at: iso(p.createdAt),
                updated_at: iso(p.updatedAt),
                // GitLab nests the jobs (`statuses`, with their `type`) in their stage.
                stages: this.stagesOf(
                  stages.filter((st) => st.pipelineId === p.id),
                  own,
                ).map((st) => ({ name: st.name, position: st.position, status: st.status, project_id: projectId, statuses: own.filter((j) => j.stage === st.name).map((j) => this.jobRecord(j, projectId)) })),
              });
            }
          },
          PIPELINE_PAGE,
        );
    }
  }

  /** The pipeline's stages, with one made up from its jobs for a stage that has no row. */
  private stagesOf(stages: CiStageEntity[], jobs: CiJobEntity[]): Array<Pick<CiStageEntity, 'name' | 'position' | 'status'>> {
    const all: Array<Pick<CiStageEntity, 'name' | 'position' | 'status'>> = [...stages];
    for (const job of jobs) if (!all.some((st) => st.name === job.stage)) all.push({ name: job.stage, position: job.stageIdx, status: job.status });
    return all.sort((a, b) => a.position - b.position);
  }

  /** A job as GitLab exports a commit status (trace, token, runner, commands and artifacts left out, as GitLab does). */
  private jobRecord(j: CiJobEntity, projectId: number): Record<string, unknown> {
    return {
      id: j.id,
      type: j.type === 'bridge' ? 'Ci::Bridge' : 'Ci::Build',
      project_id: projectId,
      name: j.name,
      stage: j.stage,
      stage_idx: j.stageIdx,
      status: j.status,
      ref: j.ref,
      tag: j.tag,
      protected: j.protected,
      allow_failure: j.allowFailure,
      retried: j.retried,
      failure_reason: j.failureReason,
      coverage: j.coverage === null ? null : Number(j.coverage),
      user_id: j.userId,
      options: { script: j.options.script ?? [], before_script: j.options.beforeScript ?? [], after_script: j.options.afterScript ?? [] },
      yaml_variables: Object.entries(j.yamlVariables ?? {}).map(([key, value]) => ({ key, value, public: true })),
      when: j.when,
      created_at: iso(j.createdAt),
      updated_at: iso(j.updatedAt),
      queued_at: iso(j.queuedAt),
      started_at: iso(j.startedAt),
      finished_at: iso(j.finishedAt),
      erased_at: iso(j.erasedAt),
      artifacts_expire_at: iso(j.artifactsExpireAt),
    };
  }

  private milestoneRecord(m: MilestoneEntity): Record<string, unknown> {
    return { id: m.id, iid: m.iid, title: m.title, description: m.description, state: m.state, due_date: m.dueDate, start_date: m.startDate, project_id: m.projectId, created_at: iso(m.createdAt), updated_at: iso(m.updatedAt) };
  }

  private labelLinks(titles: string[], labels: Map<string, LabelEntity>, targetType: string): Record<string, unknown>[] {
    return titles.map((title) => {
      const label = labels.get(title);
      return { target_type: targetType, label: { title, color: label?.color ?? '#6699cc', description: label?.description ?? null, type: 'ProjectLabel', project_id: label?.projectId ?? null } };
    });
  }

  /** The project's labels by title (label counts are small next to issues). */
  private async labelsByTitle(projectId: number): Promise<Map<string, LabelEntity>> {
    const rows = await this.dataSource.manager.find(LabelEntity, { where: { projectId } });
    return new Map(rows.map((l) => [l.title, l]));
  }

  /** Notes (with their award emoji and the author's name, as GitLab writes them) and award emoji of one page of noteables. */
  private async nested(type: 'Issue' | 'MergeRequest' | 'Snippet', ids: number[]): Promise<{ notes: Map<number, unknown[]>; awards: Map<number, unknown[]> }> {
    const notes = new Map<number, unknown[]>();
    const awards = new Map<number, unknown[]>();
    if (ids.length === 0) return { notes, awards };
    const manager = this.dataSource.manager;
    const noteRows = await manager.find(NoteEntity, { where: { noteableType: type, noteableId: In(ids) }, order: { createdAt: 'ASC', id: 'ASC' } });
    const authors = await this.byId(UserEntity, noteRows.map((n) => n.authorId));
    const noteAwards = noteRows.length ? await manager.find(AwardEmojiEntity, { where: { awardableType: 'Note', awardableId: In(noteRows.map((n) => n.id)) }, order: { id: 'ASC' } }) : [];
    const ownAwards = await manager.find(AwardEmojiEntity, { where: { awardableType: type, awardableId: In(ids) }, order: { id: 'ASC' } });
    const awardRecord = (a: AwardEmojiEntity) => ({ name: a.name, user_id: a.userId, awardable_type: a.awardableType, created_at: iso(a.createdAt), updated_at: iso(a.updatedAt) });
    for (const a of ownAwards) push(awards, a.awardableId, awardRecord(a));
    for (const n of noteRows) {
      push(notes, n.noteableId, {
        id: n.id,
        note: n.body,
        noteable_type: n.noteableType,
        author_id: n.authorId,
        project_id: n.projectId,
        system: n.system,
        internal: n.internal,
        confidential: n.internal,
        created_at: iso(n.createdAt),
        updated_at: iso(n.updatedAt),
        author: { name: authors.get(n.authorId)?.name ?? null },
        award_emoji: noteAwards.filter((a) => a.awardableId === n.id).map(awardRecord),
        events: [],
      });
    }
    return { notes, awards };
  }

  private async byId<T extends { id: number }>(entity: EntityTarget<T>, ids: Array<number | null>): Promise<Map<number, T>> {
    const unique = [...new Set(ids.filter((id): id is number => id !== null))];
    if (unique.length === 0) return new Map();
    const rows = await this.dataSource.manager.find(entity, { where: { id: In(unique) } as unknown as FindOptionsWhere<T> });
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Calls `each` with the rows of `entity` matching `where`, page by page in id order. */
  private async eachPage<T extends ObjectLiteral & { id: number }>(entity: EntityTarget<T>, where: FindOptionsWhere<T>, each: (rows: T[]) => Promise<void>, page = EXPORT_PAGE): Promise<void> {
    let after = 0;
    for (;;) {
      const rows = await this.dataSource.manager.find(entity, { where: { ...where, id: MoreThan(after) } as FindOptionsWhere<T>, order: { id: 'ASC' } as never, take: page });
      if (rows.length === 0) return;
      await each(rows);
      after = rows[rows.length - 1].id;
      if (rows.length < page) return;
    }
  }

  /** `git bundle create --all` of the project's repository; false when it has no refs (GitLab then leaves the bundle out). */
  private async writeBundle(project: ProjectWithNamespace, file: string): Promise<boolean> {
    const repository = await this.storage.open(project);
    if (!(await repository.hasBranches())) {
      const tags = await runGit(['--git-dir', repository.path, 'for-each-ref', '--count=1', 'refs/tags']);
      if (tags.stdout.length === 0) return false;
    }
    await runGit(['--git-dir', repository.path, 'bundle', 'create', file, '--all']);
    return true;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
