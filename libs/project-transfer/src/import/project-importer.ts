import { Injectable } from '@nestjs/common';
import { BadgeEntity } from '@app/badges';
import { CiJobEntity, CiPipelineEntity, CiStageEntity, JOB_STATUSES, JobStatus } from '@app/ci';
import { UserEntity } from '@app/identity';
import { InternalIdEntity, IssueEntity, LabelEntity, MergeRequestEntity, MilestoneEntity } from '@app/issues';
import { MEMBER_ACCESS_LEVELS, MemberEntity, NAMESPACE_EVENTS, ProjectEntity, ProjectWithNamespace, projectMemberEvent, VISIBILITY_LEVEL, Visibility } from '@app/namespaces';
import { NewDomainEvent } from '@app/messaging';
import { AwardEmojiEntity, NoteEntity } from '@app/notes';
import { ProtectedBranchAccessLevelEntity, ProtectedBranchEntity } from '@app/repository';
import { SnippetEntity, SnippetFileEntity } from '@app/snippets';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { EntityManager, EntityTarget, ILike, ObjectLiteral } from 'typeorm';
import { PROJECT_JSON, RELATIONS, RELATIONS_DIR, relationFile, visibilityOfLevel } from '../archive/archive-format';
import { countLines, jsonTooLargeMessage, MAX_LINE_BYTES, readNdjson } from '../archive/ndjson';
import { ArchiveError } from '../archive/tar-archive';

/** Records inserted per statement. */
const BATCH = 200;
/** GitLab keeps at most 100 `failed_relations` per import. */
export const MAX_FAILED_RELATIONS = 100;

export interface RelationFailure {
  relationName: string;
  lineNumber: number | null;
  exceptionClass: string;
  exceptionMessage: string;
  source: string;
}

export interface ImportContext {
  tx: EntityManager;
  project: ProjectWithNamespace;
  importer: UserEntity;
  /** Extracted archive. */
  dir: string;
  /** Project fields given with the request: they win over the archive. */
  overrideParams: Record<string, unknown>;
}

export interface ImportOutcome {
  failures: RelationFailure[];
  /** Failures beyond the first `MAX_FAILED_RELATIONS`, counted only. */
  moreFailures: number;
  skipped: Record<string, number>;
  counts: Record<string, number>;
  events: NewDomainEvent[];
}

type Row = Record<string, unknown>;

const str = (value: unknown, max = Infinity): string | null => (typeof value === 'string' ? value.slice(0, max) : null);
const int = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) && value >= -2147483648 && value <= 2147483647 ? value : null);
const bool = (value: unknown, fallback = false): boolean => (typeof value === 'boolean' ? value : fallback);
const date = (value: unknown): Date | null => {
  if (typeof value !== 'string') return null;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
};
const day = (value: unknown): string | null => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null);
const array = (value: unknown): Row[] => (Array.isArray(value) ? value.filter((v): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v)) : []);
const oneOf = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T => (typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback);

/** A record the archive holds but this service cannot take (missing or invalid attribute). */
class InvalidRecord extends Error {
  override name = 'ActiveRecord::RecordInvalid';
}

/** Sub-relations of issues and merge requests this service reads; other nested arrays are skipped and counted. */
const NESTED_HANDLED = new Set(['notes', 'award_emoji', 'label_links', 'issue_assignees', 'merge_request_assignees']);

/**
 * Reads an extracted GitLab export into a new project inside ONE transaction (`ctx.tx`): all of it
 * is visible at once when the caller commits, or none of it. Users are matched by email (a
 * member's public email; any email when the importer is an administrator); an author who is not
 * matched becomes the importer, and a note of theirs starts with GitLab's
 * `*By <name> on <time> (imported from GitLab)*`. A record that cannot be taken is a failed
 * relation (the import goes on); a line that is not JSON fails the import. Relations this
 * service does not have are skipped and counted.
 */
@Injectable()
export class ProjectImporter {
  async run(ctx: ImportContext): Promise<ImportOutcome> {
    const state = new ImportRun(ctx);
    await state.readProjectJson();
    for (const relation of RELATIONS) {
      const file = join(ctx.dir, relationFile(relation));
      if (existsSync(file)) await state.relation(relation, file);
    }
    await state.countUnknownRelations();
    await state.finish();
    return { failures: state.failures, moreFailures: state.moreFailures, skipped: state.skipped, counts: state.counts, events: state.events };
  }
}

class ImportRun {
  readonly failures: RelationFailure[] = [];
  moreFailures = 0;
  readonly skipped: Record<string, number> = {};
  readonly counts: Record<string, number> = {};
  readonly events: NewDomainEvent[] = [];
  private projectJson: Row = {};
  /** Archive user id → user id here. */
  private readonly users = new Map<number, number>();
  private readonly labels = new Map<string, number>();
  /** Milestone title → id here (GitLab's records nest the milestone by value). */
  private readonly milestones = new Map<string, number>();
  private readonly maxIid: Record<string, number> = {};
  private savepoints = 0;

  constructor(private readonly ctx: ImportContext) {}

  private get tx(): EntityManager {
    return this.ctx.tx;
  }

  private get projectId(): number {
    return this.ctx.project.id;
  }

  async readProjectJson(): Promise<void> {
    const path = join(this.ctx.dir, PROJECT_JSON);
    if (!existsSync(path)) throw new ArchiveError('The archive has no tree/project.json');
    // Read whole: bounded as GitLab bounds it (the extraction already refused a larger one).
    if ((await stat(path)).size > MAX_LINE_BYTES) throw new ArchiveError(jsonTooLargeMessage(path, MAX_LINE_BYTES));
    try {
      const parsed = JSON.parse(await readFile(path, 'utf8')) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      this.projectJson = parsed as Row;
    } catch (error) {
      throw new ArchiveError(`tree/project.json is not valid JSON: ${(error as Error).message}`);
    }
  }

  async relation(relation: (typeof RELATIONS)[number], file: string): Promise<void> {
    let batch: Array<{ line: number; record: Row }> = [];
    const flush = async () => {
      if (batch.length) await this.batch(relation, batch);
      batch = [];
    };
    for await (const { lineNumber, value } of readNdjson(file)) {
      if (!value.ok) {
        this.fail(relation, lineNumber, value.error, 'ndjson');
        throw new ArchiveError(`${relationFile(relation)} line ${lineNumber + 1} is not valid JSON: ${value.error.message}`);
      }
      batch.push({ line: lineNumber, record: value.record });
      if (batch.length >= BATCH) await flush();
    }
    await flush();
  }

  /** Takes a batch in one savepoint; if the database refuses it, record by record to find the ones it refuses. */
  private async batch(relation: (typeof RELATIONS)[number], batch: Array<{ line: number; record: Row }>): Promise<void> {
    try {
      await this.savepoint(() => this.take(relation, batch));
    } catch (error) {
      if (batch.length === 1) return this.fail(relation, batch[0].line, error as Error, 'process_relation_item!');
      for (const item of batch) {
        try {
          await this.savepoint(() => this.take(relation, [item]));
        } catch (single) {
          this.fail(relation, item.line, single as Error, 'process_relation_item!');
        }
      }
    }
  }

  private async savepoint<T>(work: () => Promise<T>): Promise<T> {
    const name = `import_${++this.savepoints}`;
    await this.tx.query(`SAVEPOINT ${name}`);
    try {
      const result = await work();
      await this.tx.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await this.tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
      throw error;
    }
  }

  fail(relationName: string, lineNumber: number | null, error: Error, source: string): void {
    if (this.failures.length >= MAX_FAILED_RELATIONS) {
      this.moreFailures += 1;
      return;
    }
    const exceptionClass = error instanceof SyntaxError ? 'JSON::ParserError' : error.name === 'QueryFailedError' ? 'ActiveRecord::StatementInvalid' : error.name || 'StandardError';
    this.failures.push({ relationName, lineNumber, exceptionClass: exceptionClass.slice(0, 255), exceptionMessage: error.message.slice(0, 1000), source });
  }

  private count(name: string, n = 1): void {
    this.counts[name] = (this.counts[name] ?? 0) + n;
  }

  private skip(name: string, n = 1): void {
    this.skipped[name] = (this.skipped[name] ?? 0) + n;
  }

  /** Relation files of the archive this service does not read: their lines are counted. */
  async countUnknownRelations(): Promise<void> {
    const dir = join(this.ctx.dir, RELATIONS_DIR);
    if (!existsSync(dir)) return;
    const known = new Set<string>(RELATIONS.map((r) => `${r}.ndjson`));
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (!entry.isFile() || known.has(entry.name) || !entry.name.endsWith('.ndjson')) continue;
      this.skip(entry.name.replace(/\.ndjson$/, ''), await countLines(join(dir, entry.name)));
    }
  }

  private user(archiveId: unknown): number | null {
    const id = int(archiveId);
    return id === null ? null : (this.users.get(id) ?? null);
  }

  private author(archiveId: unknown): number {
    return this.user(archiveId) ?? this.ctx.importer.id;
  }

  private track(usage: string, iid: number): void {
    this.maxIid[usage] = Math.max(this.maxIid[usage] ?? 0, iid);
  }

  private async take(relation: (typeof RELATIONS)[number], batch: Array<{ line: number; record: Row }>): Promise<void> {
    switch (relation) {
      case 'project_members':
        return this.members(batch.map((b) => b.record));
      case 'labels':
        for (const { record } of batch) await this.label(record);
        return;
      case 'milestones':
        for (const { record } of batch) await this.milestone(record);
        return;
      case 'issues':
        return this.issuables('Issue', batch.map((b) => b.record));
      case 'merge_requests':
        return this.issuables('MergeRequest', batch.map((b) => b.record));
      case 'protected_branches':
        return this.protectedBranches(batch.map((b) => b.record));
      case 'project_badges':
        return this.badges(batch.map((b) => b.record));
      case 'snippets':
        return this.snippets(batch.map((b) => b.record));
      case 'ci_pipelines':
        return this.pipelines(batch.map((b) => b.record));
    }
  }

  private async members(records: Row[]): Promise<void> {
    const emailOf = (user: Row): string[] => {
      const emails = [str(user.public_email)];
      if (this.ctx.importer.isAdmin) emails.push(str(user.email));
      return emails.filter((e): e is string => !!e).map((e) => e.toLowerCase());
    };
    for (const record of records) {
      const user = (record.user ?? {}) as Row;
      const archiveId = int(record.user_id) ?? int(user.id);
      const emails = emailOf(user);
      let found: UserEntity | null = null;
      if (emails.length) {
        if (this.ctx.importer.isAdmin) found = await this.tx.findOne(UserEntity, { where: emails.map((email) => ({ email: ILike(email) })) });
        if (!found) found = await this.tx.findOne(UserEntity, { where: emails.map((email) => ({ publicEmail: ILike(email) })) });
      }
      if (!found) {
        this.skip('project_members (no matching user)');
        continue;
      }
      if (archiveId !== null) this.users.set(archiveId, found.id);
      const level = int(record.access_level);
      if (level === null || !MEMBER_ACCESS_LEVELS.includes(level)) throw new InvalidRecord('Validation failed: Access level is not included in the list');
      const existing = await this.tx.findOneBy(MemberEntity, { sourceType: 'project', sourceId: this.projectId, userId: found.id });
      if (existing) continue;
      const member = await this.tx.save(
        this.tx.create(MemberEntity, { sourceType: 'project', sourceId: this.projectId, userId: found.id, accessLevel: level, createdById: this.ctx.importer.id, expiresAt: day(record.expires_at) }),
      );
      this.events.push(projectMemberEvent(NAMESPACE_EVENTS.USER_ADD_TO_TEAM, this.ctx.importer.id, this.ctx.project, this.ctx.project.namespace, member, found));
      this.count('project_members');
    }
  }

  private async label(record: Row): Promise<number> {
    const title = str(record.title, 255);
    if (!title) throw new InvalidRecord("Validation failed: Title can't be blank");
    const known = this.labels.get(title);
    if (known !== undefined) return known;
    const color = typeof record.color === 'string' && /^#[0-9a-fA-F]{6}$/.test(record.color) ? record.color : '#6699cc';
    const created = date(record.created_at) ?? undefined;
    const result = await this.tx.insert(LabelEntity, { projectId: this.projectId, groupId: null, title, color, description: str(record.description), createdAt: created, updatedAt: date(record.updated_at) ?? created });
    const id = result.identifiers[0].id as number;
    this.labels.set(title, id);
    this.count('labels');
    return id;
  }

  private async milestone(record: Row): Promise<number> {
    const title = str(record.title, 255);
    if (!title) throw new InvalidRecord("Validation failed: Title can't be blank");
    const known = this.milestones.get(title);
    if (known !== undefined) return known;
    const iid = int(record.iid) ?? (this.maxIid.milestones ?? 0) + 1;
    const created = date(record.created_at) ?? undefined;
    const result = await this.tx.insert(MilestoneEntity, {
      iid,
      projectId: this.projectId,
      groupId: null,
      title,
      description: str(record.description),
      state: oneOf(record.state, ['active', 'closed'], 'active') as never,
      dueDate: day(record.due_date),
      startDate: day(record.start_date),
      createdAt: created,
      updatedAt: date(record.updated_at) ?? created,
    });
    const id = result.identifiers[0].id as number;
    this.milestones.set(title, id);
    this.track('milestones', iid);
    this.count('milestones');
    return id;
  }

  private async labelsOf(record: Row): Promise<string[]> {
    const titles: string[] = [];
    for (const link of array(record.label_links)) {
      const label = (link.label ?? {}) as Row;
      const title = str(label.title, 255);
      if (!title) continue;
      await this.label(label);
      if (!titles.includes(title)) titles.push(title);
    }
    return titles;
  }

  private async milestoneOf(record: Row): Promise<number | null> {
    const milestone = record.milestone;
    if (typeof milestone !== 'object' || milestone === null) return null;
    return this.milestone(milestone as Row);
  }

  private countNestedSkipped(relation: string, record: Row): void {
    for (const [key, value] of Object.entries(record)) if (Array.isArray(value) && value.length > 0 && !NESTED_HANDLED.has(key)) this.skip(`${relation}.${key}`, value.length);
  }

  private async issuables(type: 'Issue' | 'MergeRequest', records: Row[]): Promise<void> {
    const relation = type === 'Issue' ? 'issues' : 'merge_requests';
    const rows: ObjectLiteral[] = [];
    for (const record of records) {
      const iid = int(record.iid);
      const title = str(record.title, 255);
      if (iid === null || iid < 1) throw new InvalidRecord("Validation failed: Iid can't be blank");
      if (!title) throw new InvalidRecord("Validation failed: Title can't be blank");
      const created = date(record.created_at) ?? new Date();
      const assignees = array(type === 'Issue' ? record.issue_assignees : record.merge_request_assignees)
        .map((a) => this.user(a.user_id))
        .filter((id): id is number => id !== null);
      const common = {
        iid,
        projectId: this.projectId,
        title,
        description: str(record.description),
        authorId: this.author(record.author_id),
        assigneeIds: [...new Set(assignees)],
        labels: await this.labelsOf(record),
        milestoneId: await this.milestoneOf(record),
        closedAt: date(record.closed_at),
        createdAt: created,
        updatedAt: date(record.updated_at) ?? created,
      };
      this.countNestedSkipped(relation, record);
      if (type === 'Issue') {
        rows.push({
          ...common,
          state: oneOf(record.state, ['opened', 'closed'], 'opened'),
          confidential: bool(record.confidential),
          issueType: oneOf(record.issue_type, ['issue', 'incident', 'test_case', 'task'], 'issue'),
          weight: int(record.weight),
          closedById: this.user(record.closed_by_id),
        });
      } else {
        const metrics = (record.metrics ?? {}) as Row;
        const sourceBranch = str(record.source_branch, 255);
        const targetBranch = str(record.target_branch, 255);
        if (!sourceBranch || !targetBranch) throw new InvalidRecord("Validation failed: Source branch can't be blank");
        rows.push({
          ...common,
          state: oneOf(record.state, ['opened', 'closed', 'merged', 'locked'], 'opened'),
          sourceBranch,
          targetBranch,
          mergedById: this.user(metrics.merged_by_id),
          mergedAt: date(metrics.merged_at),
          closedById: this.user(metrics.latest_closed_by_id),
          mergeCommitSha: typeof record.merge_commit_sha === 'string' && /^[0-9a-f]{40}$/.test(record.merge_commit_sha) ? record.merge_commit_sha : null,
          squashCommitSha: typeof record.squash_commit_sha === 'string' && /^[0-9a-f]{40}$/.test(record.squash_commit_sha) ? record.squash_commit_sha : null,
        });
      }
      this.track(relation, iid);
    }
    const inserted = await this.tx.insert((type === 'Issue' ? IssueEntity : MergeRequestEntity) as EntityTarget<ObjectLiteral>, rows);
    const ids = inserted.identifiers.map((i) => i.id as number);
    this.count(relation, rows.length);
    await this.nested(type, records, ids);
  }

  /** Notes and award emoji of a page of noteables (`ids[i]` is the new id of `records[i]`). */
  private async nested(type: 'Issue' | 'MergeRequest' | 'Snippet', records: Row[], ids: number[]): Promise<void> {
    const awards: ObjectLiteral[] = [];
    const notes: ObjectLiteral[] = [];
    const noteAwards: Row[][] = [];
    records.forEach((record, index) => {
      for (const award of array(record.award_emoji)) awards.push(...this.award(award, type, ids[index]));
      for (const note of array(record.notes)) {
        const body = str(note.note);
        if (body === null || body === '') continue;
        const authorId = this.user(note.author_id);
        const created = date(note.created_at) ?? new Date();
        const authorName = str(((note.author ?? {}) as Row).name) ?? 'Unknown';
        notes.push({
          noteableType: type,
          noteableId: ids[index],
          projectId: this.projectId,
          groupId: null,
          authorId: authorId ?? this.ctx.importer.id,
          body: authorId === null ? `*By ${authorName} on ${created.toISOString()} (imported from GitLab)*\n\n${body}` : body,
          system: bool(note.system),
          internal: bool(note.internal, bool(note.confidential)),
          systemNoteAction: null,
          createdAt: created,
          updatedAt: date(note.updated_at) ?? created,
        });
        noteAwards.push(array(note.award_emoji));
      }
    });
    if (notes.length) {
      for (let i = 0; i < notes.length; i += BATCH) {
        const slice = notes.slice(i, i + BATCH);
        const inserted = await this.tx.insert(NoteEntity, slice);
        inserted.identifiers.forEach((identifier, j) => {
          for (const award of noteAwards[i + j]) awards.push(...this.award(award, 'Note', identifier.id as number));
        });
      }
      this.count('notes', notes.length);
    }
    if (awards.length) {
      for (let i = 0; i < awards.length; i += BATCH) await this.tx.createQueryBuilder().insert().into(AwardEmojiEntity).values(awards.slice(i, i + BATCH)).orIgnore().execute();
      this.count('award_emoji', awards.length);
    }
  }

  private award(record: Row, awardableType: string, awardableId: number): ObjectLiteral[] {
    const name = str(record.name, 255);
    if (!name) return [];
    const created = date(record.created_at) ?? new Date();
    return [{ name, userId: this.author(record.user_id), awardableType, awardableId, createdAt: created, updatedAt: date(record.updated_at) ?? created }];
  }

  private async protectedBranches(records: Row[]): Promise<void> {
    for (const record of records) {
      const name = str(record.name, 255);
      if (!name) throw new InvalidRecord("Validation failed: Name can't be blank");
      const inserted = await this.tx.insert(ProtectedBranchEntity, { projectId: this.projectId, name, allowForcePush: bool(record.allow_force_push), codeOwnerApprovalRequired: bool(record.code_owner_approval_required) });
      const id = inserted.identifiers[0].id as number;
      const levels: ObjectLiteral[] = [];
      for (const [key, action] of [['merge_access_levels', 'merge'], ['push_access_levels', 'push'], ['unprotect_access_levels', 'unprotect']] as const) {
        for (const level of array(record[key])) {
          const userId = level.user_id === null || level.user_id === undefined ? null : this.user(level.user_id);
          if (level.user_id !== null && level.user_id !== undefined && userId === null) {
            this.skip(`protected_branches.${key} (no matching user)`);
            continue;
          }
          if (level.group_id !== null && level.group_id !== undefined) {
            this.skip(`protected_branches.${key} (group)`);
            continue;
          }
          const accessLevel = userId === null ? int(level.access_level) : null;
          if (userId === null && (accessLevel === null || ![0, 30, 40, 60].includes(accessLevel))) throw new InvalidRecord('Validation failed: Access level is not included in the list');
          levels.push({ protectedBranchId: id, action, accessLevel, userId, groupId: null });
        }
      }
      if (levels.length) await this.tx.insert(ProtectedBranchAccessLevelEntity, levels);
      this.count('protected_branches');
    }
  }

  private async badges(records: Row[]): Promise<void> {
    const rows = records.map((record) => {
      const linkUrl = str(record.link_url, 2048);
      const imageUrl = str(record.image_url, 2048);
      if (!linkUrl || !imageUrl) throw new InvalidRecord("Validation failed: Link url can't be blank");
      return { kind: 'project' as const, projectId: this.projectId, groupId: null, name: str(record.name, 255), linkUrl, imageUrl };
    });
    await this.tx.insert(BadgeEntity, rows);
    this.count('project_badges', rows.length);
  }

  private async snippets(records: Row[]): Promise<void> {
    const ids: number[] = [];
    for (const record of records) {
      const title = str(record.title, 255);
      if (!title) throw new InvalidRecord("Validation failed: Title can't be blank");
      const created = date(record.created_at) ?? new Date();
      const inserted = await this.tx.insert(SnippetEntity, {
        projectId: this.projectId,
        authorId: this.author(record.author_id),
        title,
        description: str(record.description),
        visibility: visibilityOfLevel(record.visibility_level) ?? 'private',
        createdAt: created,
        updatedAt: date(record.updated_at) ?? created,
      });
      const id = inserted.identifiers[0].id as number;
      ids.push(id);
      const files = array(record.files).length ? array(record.files) : [{ path: record.file_name, content: record.content }];
      const rows = files
        .map((file, position) => ({ snippetId: id, position, path: str(file.path, 255) ?? `snippetfile${position + 1}.txt`, content: str(file.content) ?? '' }))
        .filter((file, index, all) => all.findIndex((other) => other.path === file.path) === index);
      if (rows.length) await this.tx.insert(SnippetFileEntity, rows);
    }
    this.count('snippets', records.length);
    await this.nested('Snippet', records, ids);
  }

  private async pipelines(records: Row[]): Promise<void> {
    const rows = records.map((record) => {
      const iid = int(record.iid);
      const sha = str(record.sha, 64);
      const ref = str(record.ref, 255);
      if (iid === null || !sha || !ref) throw new InvalidRecord("Validation failed: Iid, sha and ref can't be blank");
      this.track('ci_pipelines', iid);
      const created = date(record.created_at) ?? new Date();
      return {
        iid,
        projectId: this.projectId,
        status: this.finishedStatus(record.status),
        source: (str(record.source, 40) ?? 'push') as never,
        ref,
        sha,
        beforeSha: str(record.before_sha, 64) ?? '0000000000000000000000000000000000000000',
        tag: bool(record.tag),
        protected: bool(record.protected),
        yamlErrors: str(record.yaml_errors),
        userId: this.user(record.user_id),
        failureReason: str(record.failure_reason, 60),
        startedAt: date(record.started_at),
        finishedAt: date(record.finished_at),
        committedAt: date(record.committed_at),
        duration: int(record.duration),
        createdAt: created,
        updatedAt: date(record.updated_at) ?? created,
      } as ObjectLiteral;
    });
    const inserted = await this.tx.insert(CiPipelineEntity, rows);
    this.count('ci_pipelines', rows.length);
    for (const [index, record] of records.entries()) {
      await this.pipelineStages(record, inserted.identifiers[index].id as number, rows[index]);
      // Pipeline notes, external pull requests, …: not kept here.
      for (const [key, value] of Object.entries(record)) if (key !== 'stages' && Array.isArray(value) && value.length > 0) this.skip(`ci_pipelines.${key}`, value.length);
    }
  }

  /**
   * The stages of a pipeline and their jobs, as GitLab nests them (`stages[].statuses`, or
   * `builds` / `bridges` / `generic_commit_statuses` in later versions). Builds and bridges are
   * taken; generic commit statuses are skipped and counted. A job that had not finished cannot
   * run here (no runner, no token, no trace): it is imported `canceled`.
   */
  private async pipelineStages(record: Row, pipelineId: number, pipeline: ObjectLiteral): Promise<void> {
    const jobs: ObjectLiteral[] = [];
    for (const [index, stage] of array(record.stages).entries()) {
      const name = str(stage.name, 255);
      if (!name) throw new InvalidRecord("Validation failed: Stage name can't be blank");
      const position = int(stage.position) ?? index;
      await this.tx.insert(CiStageEntity, { pipelineId, name, position, status: this.finishedStatus(stage.status) });
      this.count('ci_stages');
      const statuses = [...array(stage.statuses), ...array(stage.builds), ...array(stage.bridges)];
      const generic = array(stage.generic_commit_statuses).length + statuses.filter((s) => s.type === 'GenericCommitStatus').length;
      if (generic) this.skip('ci_pipelines.stages.generic_commit_statuses', generic);
      for (const status of statuses) {
        if (status.type === 'GenericCommitStatus') continue;
        const jobName = str(status.name, 255);
        if (!jobName) throw new InvalidRecord("Validation failed: Name can't be blank");
        const options = (typeof status.options === 'object' && status.options !== null ? status.options : {}) as Row;
        const lines = (value: unknown): string[] | undefined => (Array.isArray(value) && value.every((line) => typeof line === 'string') ? (value as string[]) : undefined);
        const created = date(status.created_at) ?? (pipeline.createdAt as Date);
        const variables = Array.isArray(status.yaml_variables) ? array(status.yaml_variables) : [];
        jobs.push({
          projectId: this.projectId,
          pipelineId,
          type: status.type === 'Ci::Bridge' ? 'bridge' : 'build',
          name: jobName,
          stage: name,
          stageIdx: int(status.stage_idx) ?? position,
          status: this.finishedStatus(status.status),
          when: oneOf(status.when, ['on_success', 'on_failure', 'always', 'manual', 'delayed', 'never'], 'on_success'),
          allowFailure: bool(status.allow_failure),
          needs: null,
          options: { script: lines(options.script), beforeScript: lines(options.before_script), afterScript: lines(options.after_script) },
          yamlVariables: Object.fromEntries(variables.filter((v) => typeof v.key === 'string' && typeof v.value === 'string').map((v) => [v.key, v.value])),
          tagList: [],
          ref: str(status.ref, 255) ?? pipeline.ref,
          sha: pipeline.sha,
          tag: bool(status.tag, pipeline.tag as boolean),
          protected: bool(status.protected, pipeline.protected as boolean),
          retried: bool(status.retried),
          failureReason: str(status.failure_reason, 60),
          coverage: typeof status.coverage === 'number' && Number.isFinite(status.coverage) && status.coverage >= 0 && status.coverage <= 100 ? status.coverage.toFixed(2) : null,
          userId: this.user(status.user_id),
          createdAt: created,
          updatedAt: date(status.updated_at) ?? created,
          queuedAt: date(status.queued_at),
          startedAt: date(status.started_at),
          finishedAt: date(status.finished_at),
          erasedAt: date(status.erased_at),
          artifactsExpireAt: null,
        });
      }
    }
    for (let i = 0; i < jobs.length; i += BATCH) await this.tx.insert(CiJobEntity, jobs.slice(i, i + BATCH));
    if (jobs.length) this.count('ci_jobs', jobs.length);
  }

  /** A finished status as it was; any other (the job would wait for a runner here) becomes `canceled`. */
  private finishedStatus(value: unknown): JobStatus {
    const status = oneOf(value, JOB_STATUSES, 'canceled');
    return ['success', 'failed', 'canceled', 'skipped'].includes(status) ? status : 'canceled';
  }

  /** iid counters past the imported iids; the project's attributes (override params win); open issue count. */
  async finish(): Promise<void> {
    for (const [usage, last] of Object.entries(this.maxIid)) {
      await this.tx
        .createQueryBuilder()
        .insert()
        .into(InternalIdEntity)
        .values({ scopeType: 'project', scopeId: this.projectId, usage: usage as never, lastValue: last })
        .orUpdate(['last_value'], ['scope_type', 'scope_id', 'usage'])
        .execute();
    }
    const json = this.projectJson;
    const overrides = this.ctx.overrideParams;
    const update: Partial<Pick<ProjectEntity, 'description' | 'visibility' | 'archived' | 'mergeMethod' | 'topics' | 'issuesEnabled' | 'mergeRequestsEnabled'>> = {};
    const takes = (key: string) => !(key in overrides) && key in json;
    if (takes('description')) update.description = str(json.description, 2000);
    const visibility = visibilityOfLevel(json.visibility_level);
    if (!('visibility' in overrides) && visibility) {
      // Never more visible than the namespace allows (GitLab lowers it the same way).
      const parent = this.ctx.project.namespace.kind === 'group' ? this.ctx.project.namespace.visibility : 'public';
      update.visibility = (VISIBILITY_LEVEL[visibility] <= VISIBILITY_LEVEL[parent] ? visibility : parent) as Visibility;
    }
    if (takes('archived')) update.archived = bool(json.archived);
    if (!('merge_method' in overrides)) update.mergeMethod = json.merge_requests_ff_only_enabled === true ? 'ff' : json.merge_requests_rebase_enabled === true ? 'rebase_merge' : 'merge';
    if (takes('topics') && Array.isArray(json.topics)) update.topics = json.topics.filter((t): t is string => typeof t === 'string').slice(0, 50);
    const feature = (json.project_feature ?? {}) as Row;
    if (!('issues_enabled' in overrides) && typeof feature.issues_access_level === 'number') update.issuesEnabled = feature.issues_access_level > 0;
    if (!('merge_requests_enabled' in overrides) && typeof feature.merge_requests_access_level === 'number') update.mergeRequestsEnabled = feature.merge_requests_access_level > 0;
    const open = await this.tx.count(IssueEntity, { where: { projectId: this.projectId, state: 'opened' } });
    await this.tx.update(ProjectEntity, { id: this.projectId }, { ...update, openIssuesCount: open });
  }
}
