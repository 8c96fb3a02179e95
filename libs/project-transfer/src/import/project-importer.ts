import { Inject, Injectable } from '@nestjs/common';
import { UserEntity } from '@app/identity';
import { InternalIdsRepository, IssueEntity } from '@app/issues';
import { ProjectsRepository, ProjectWithNamespace } from '@app/namespaces';
import { NewDomainEvent } from '@app/messaging';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { EntityManager } from 'typeorm';
import { PROJECT_JSON, RELATIONS, RELATIONS_DIR, relationFile } from '../archive/archive-format';
import { countLines, jsonTooLargeMessage, MAX_LINE_BYTES, readNdjson } from '../archive/ndjson';
import { ArchiveError } from '../archive/tar-archive';
import { importedProjectChanges } from '../relations/project-attributes';
import { int, Row } from '../relations/record-fields';
import { IMPORT_BATCH, TRANSFER_RELATIONS, type RelationImportContext, type TransferRelation } from '../relations/transfer-relation';

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

/**
 * Reads an extracted GitLab export into a new project inside ONE transaction (`ctx.tx`): all of it
 * is visible at once when the caller commits, or none of it. Each relation file is read by its
 * `relations/*.relation.ts`, in `RELATIONS` order. Users are matched by email (a member's public
 * email; any email when the importer is an administrator); an author who is not matched becomes
 * the importer, and a note of theirs starts with GitLab's `*By <name> on <time> (imported from
 * GitLab)*`. A record that cannot be taken is a failed relation (the import goes on); a line that
 * is not JSON fails the import. Relations this service does not have are skipped and counted.
 */
@Injectable()
export class ProjectImporter {
  constructor(
    @Inject(TRANSFER_RELATIONS) private readonly relations: TransferRelation[],
    private readonly internalIds: InternalIdsRepository,
    private readonly projects: ProjectsRepository,
  ) {}

  async run(ctx: ImportContext): Promise<ImportOutcome> {
    const state = new ImportRun(ctx, this.internalIds, this.projects);
    await state.readProjectJson();
    for (const relation of this.relations) {
      const file = join(ctx.dir, relationFile(relation.name));
      if (existsSync(file)) await state.relation(relation, file);
    }
    await state.countUnknownRelations();
    await state.finish();
    return { failures: state.failures, moreFailures: state.moreFailures, skipped: state.skipped, counts: state.counts, events: state.events };
  }
}

/** What an import run holds in memory beside the rows, as it was when a savepoint began. */
interface RunMemory {
  labels: Map<string, number>;
  milestones: Map<string, number>;
  users: Map<number, number>;
  counts: Record<string, number>;
  skipped: Record<string, number>;
  maxIid: Record<string, number>;
  events: number;
  failures: number;
  moreFailures: number;
}

function replaceEntries<K, V>(target: Map<K, V>, source: Map<K, V>): void {
  target.clear();
  for (const [key, value] of source) target.set(key, value);
}

function replaceFields(target: Record<string, number>, source: Record<string, number>): void {
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, source);
}

/** One import: the sequence of relations, their batches in savepoints, the failed relations and what the relations share. */
class ImportRun implements RelationImportContext {
  readonly failures: RelationFailure[] = [];
  moreFailures = 0;
  readonly skipped: Record<string, number> = {};
  readonly counts: Record<string, number> = {};
  readonly events: NewDomainEvent[] = [];
  readonly labels = new Map<string, number>();
  readonly milestones = new Map<string, number>();
  private projectJson: Row = {};
  /** Archive user id → user id here. */
  private readonly users = new Map<number, number>();
  private readonly maxIid: Record<string, number> = {};
  private savepoints = 0;

  constructor(
    private readonly ctx: ImportContext,
    private readonly internalIds: InternalIdsRepository,
    private readonly projects: ProjectsRepository,
  ) {}

  get tx(): EntityManager {
    return this.ctx.tx;
  }

  get project(): ProjectWithNamespace {
    return this.ctx.project;
  }

  get importer(): UserEntity {
    return this.ctx.importer;
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

  async relation(relation: TransferRelation, file: string): Promise<void> {
    let batch: Array<{ line: number; record: Row }> = [];
    const flush = async () => {
      if (batch.length) await this.batch(relation, batch);
      batch = [];
    };
    for await (const { lineNumber, value } of readNdjson(file)) {
      if (!value.ok) {
        this.fail(relation.name, lineNumber, value.error, 'ndjson');
        throw new ArchiveError(`${relationFile(relation.name)} line ${lineNumber + 1} is not valid JSON: ${value.error.message}`);
      }
      batch.push({ line: lineNumber, record: value.record });
      if (batch.length >= IMPORT_BATCH) await flush();
    }
    await flush();
  }

  /** Takes a batch in one savepoint; if the database refuses it, record by record to find the ones it refuses. */
  private async batch(relation: TransferRelation, batch: Array<{ line: number; record: Row }>): Promise<void> {
    try {
      await this.savepoint(() =>
        relation.import(
          this,
          batch.map((b) => b.record),
        ),
      );
    } catch (error) {
      if (batch.length === 1) return this.fail(relation.name, batch[0].line, error as Error, 'process_relation_item!');
      for (const item of batch) {
        try {
          await this.savepoint(() => relation.import(this, [item.record]));
        } catch (single) {
          this.fail(relation.name, item.line, single as Error, 'process_relation_item!');
        }
      }
    }
  }

  /**
   * Runs `work` in a savepoint. What the run keeps in memory beside the rows (the labels and
   * milestones created so far, matched users, counts, events, iids, failures) is rolled back with
   * the rows, so that a batch retried record by record creates again what the rollback removed.
   */
  private async savepoint<T>(work: () => Promise<T>): Promise<T> {
    const name = `import_${++this.savepoints}`;
    const before = this.memory();
    await this.tx.query(`SAVEPOINT ${name}`);
    try {
      const result = await work();
      await this.tx.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await this.tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
      this.restore(before);
      throw error;
    }
  }

  private memory(): RunMemory {
    return {
      labels: new Map(this.labels),
      milestones: new Map(this.milestones),
      users: new Map(this.users),
      counts: { ...this.counts },
      skipped: { ...this.skipped },
      maxIid: { ...this.maxIid },
      events: this.events.length,
      failures: this.failures.length,
      moreFailures: this.moreFailures,
    };
  }

  private restore(memory: RunMemory): void {
    replaceEntries(this.labels, memory.labels);
    replaceEntries(this.milestones, memory.milestones);
    replaceEntries(this.users, memory.users);
    replaceFields(this.counts, memory.counts);
    replaceFields(this.skipped, memory.skipped);
    replaceFields(this.maxIid, memory.maxIid);
    this.events.length = memory.events;
    this.failures.length = memory.failures;
    this.moreFailures = memory.moreFailures;
  }

  fail(relationName: string, lineNumber: number | null, error: Error, source: string): void {
    if (this.failures.length >= MAX_FAILED_RELATIONS) {
      this.moreFailures += 1;
      return;
    }
    const exceptionClass =
      error instanceof SyntaxError ? 'JSON::ParserError' : error.name === 'QueryFailedError' ? 'ActiveRecord::StatementInvalid' : error.name || 'StandardError';
    this.failures.push({ relationName, lineNumber, exceptionClass: exceptionClass.slice(0, 255), exceptionMessage: error.message.slice(0, 1000), source });
  }

  count(name: string, n = 1): void {
    this.counts[name] = (this.counts[name] ?? 0) + n;
  }

  skip(name: string, n = 1): void {
    this.skipped[name] = (this.skipped[name] ?? 0) + n;
  }

  event(event: NewDomainEvent): void {
    this.events.push(event);
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

  matchUser(archiveId: number, userId: number): void {
    this.users.set(archiveId, userId);
  }

  user(archiveId: unknown): number | null {
    const id = int(archiveId);
    return id === null ? null : (this.users.get(id) ?? null);
  }

  author(archiveId: unknown): number {
    return this.user(archiveId) ?? this.ctx.importer.id;
  }

  track(usage: string, iid: number): void {
    this.maxIid[usage] = Math.max(this.maxIid[usage] ?? 0, iid);
  }

  lastIid(usage: string): number {
    return this.maxIid[usage] ?? 0;
  }

  /** iid counters past the imported iids; the project's attributes (override params win); open issue count. */
  async finish(): Promise<void> {
    for (const [usage, last] of Object.entries(this.maxIid)) await this.internalIds.setImported(this.tx, 'project', this.projectId, usage as never, last);
    const update = importedProjectChanges(this.projectJson, this.ctx.overrideParams, this.ctx.project);
    const open = await this.tx.count(IssueEntity, { where: { projectId: this.projectId, state: 'opened' } });
    await this.projects.updateImported(this.tx, this.projectId, { ...update, openIssuesCount: open });
  }
}
