import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '@app/api';
import { AppConfig } from '@app/config';
import { UsersRepository } from '@app/identity';
import { OutboxService } from '@app/messaging';
import {
  AccessService,
  ACCESS_LEVELS,
  CreateProjectUseCase,
  GroupsRepository,
  MembersRepository,
  NAMESPACE_EVENTS,
  projectEvent,
  ProjectsRepository,
  ProjectWithNamespace,
  Visibility,
} from '@app/namespaces';
import { RepositoryStorage, runGit } from '@app/repository';
import type { Queue } from 'bullmq';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { BUNDLE_FILE, supportedVersion, VERSION_FILE } from '../archive/archive-format';
import { importEntryLimits } from '../archive/import-entry-limits';
import { ArchiveError, extractArchive } from '../archive/tar-archive';
import type { ProjectImportStateEntity } from '../entities/project-import-state.entity';
import { ProjectImporter, RelationFailure } from '../import/project-importer';
import { OutboundTransfer } from '../outbound/outbound-transfer';
import { importJobId, PROJECT_TRANSFER } from '../queues/project-transfer.jobs';
import { PROJECT_TRANSFER_EVENTS, projectTransferEvent } from '../events/project-transfer.events';
import { ProjectTransferRepository } from '../repositories/project-transfer.repository';
import { MAX_ARCHIVE_ENTRIES, TransferFiles } from '../files/transfer-files';
import { ImportLimits } from './import-limits';

export { ImportLimits } from './import-limits';

export interface AccessActor {
  id: number;
  isAdmin: boolean;
  external: boolean;
}

export interface RequestImportCommand {
  actor: AccessActor;
  path: string;
  namespace?: string;
  name?: string;
  overwrite: boolean;
  overrideParams: Record<string, unknown>;
  correlationId: string | null;
  /** The archive already stored under the imports directory (upload), or the address the job fetches it from. */
  source: { fileKey: string } | { url: string };
}

/** Project fields `override_params` may set (those of project creation this service keeps). */
const OVERRIDABLE = ['description', 'visibility', 'topics', 'default_branch', 'issues_enabled', 'merge_requests_enabled', 'merge_method', 'archived'] as const;

/**
 * `POST /projects/import` and `/projects/remote-import`: creates the project (`project_create`
 * and the creator's membership, as any creation), records its import `scheduled` and enqueues
 * the job. With `overwrite=true` an existing project of that path (owner or administrator only)
 * stays as it is until the import finishes; the import runs in a new project under a temporary
 * path, which takes the path in the same transaction that removes the old project.
 */
@Injectable()
export class RequestImportUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly createProject: CreateProjectUseCase,
    private readonly groups: GroupsRepository,
    private readonly projects: ProjectsRepository,
    private readonly transfers: ProjectTransferRepository,
    private readonly access: AccessService,
    private readonly files: TransferFiles,
    @InjectQueue(PROJECT_TRANSFER.name) private readonly queue: Queue,
  ) {}

  async execute(command: RequestImportCommand): Promise<ProjectWithNamespace> {
    const overrides = pickOverrides(command.overrideParams);
    try {
      const namespace =
        command.namespace !== undefined ? await this.groups.findNamespaceByRef(command.namespace) : await this.groups.personalNamespace(command.actor.id);
      if (!namespace) throw DomainError.notFound('Namespace');
      const existing = await this.projects.findByRef(`${namespace.fullPath}/${command.path}`);
      let replaces: ProjectWithNamespace | null = null;
      if (existing) {
        if (!command.overwrite) throw DomainError.invalid({ name: ['has already been taken'], path: ['has already been taken'] });
        if ((await this.access.projectAccessLevel(existing, command.actor)) < ACCESS_LEVELS.OWNER) throw DomainError.forbidden();
        replaces = existing;
      }
      const suffix = replaces ? `-tmp-${Date.now().toString(36)}` : '';
      const { project } = await this.createProject.execute({
        actor: command.actor,
        path: `${command.path}${suffix}`,
        name: `${command.name ?? replaces?.name ?? command.path}${suffix}`,
        namespaceRef: String(namespace.id),
        description: typeof overrides.description === 'string' ? overrides.description : undefined,
        visibility: typeof overrides.visibility === 'string' ? (overrides.visibility as Visibility) : undefined,
        defaultBranch: typeof overrides.default_branch === 'string' ? overrides.default_branch : undefined,
        topics: Array.isArray(overrides.topics) ? (overrides.topics as string[]) : undefined,
        attributes: Object.fromEntries(Object.entries(overrides).filter(([key]) => ['issues_enabled', 'merge_requests_enabled', 'merge_method'].includes(key))),
      });
      await this.transfers.insertImportState({
        projectId: project.id,
        status: 'scheduled',
        importType: 'gitlab_project',
        userId: command.actor.id,
        correlationId: command.correlationId,
        error: null,
        fileKey: 'fileKey' in command.source ? command.source.fileKey : null,
        sourceUrl: 'url' in command.source ? command.source.url : null,
        overrideParams: overrides as never,
        replacesProjectId: replaces?.id ?? null,
        finalPath: replaces ? command.path : null,
        finalName: replaces ? (command.name ?? replaces.name) : null,
        skippedRelations: {},
      });
      await enqueueImport(this.queue, project.id).catch(() => undefined);
      return project;
    } catch (error) {
      if ('fileKey' in command.source) await this.files.remove(uploadDirectoryOf(command.source.fileKey));
      throw error;
    }
  }
}

export function pickOverrides(params: Record<string, unknown>): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const key of OVERRIDABLE) if (params[key] !== undefined) picked[key] = params[key];
  if (typeof picked.archived === 'string') picked.archived = picked.archived === 'true';
  for (const key of ['issues_enabled', 'merge_requests_enabled'] as const) if (typeof picked[key] === 'string') picked[key] = picked[key] === 'true';
  if (typeof picked.topics === 'string')
    picked.topics = picked.topics
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
  return picked;
}

/**
 * Times the job starts one import: its run, and one more when the process ended while it ran
 * (a restart, or a crash the import itself may have caused). A third start fails the import
 * instead, so that an archive that ends its process cannot do it again after every restart.
 */
export const MAX_IMPORT_STARTS = 2;

/** The `import_error` of an import failed by that rule. */
export const interruptedMessage = (interruptions: number): string =>
  `The import was interrupted ${interruptions} times (its process ended while it ran): it is not started again`;

/** The upload directory (`imports/<name>`) of a stored archive key. */
const uploadDirectoryOf = (fileKey: string): string => fileKey.split('/').slice(0, 2).join('/');

export const enqueueImport = (queue: Queue, projectId: number) =>
  queue.add(PROJECT_TRANSFER.jobs.IMPORT_PROJECT, { projectId }, { jobId: importJobId(projectId), attempts: 1, removeOnComplete: 1000, removeOnFail: 1000 });

/**
 * The import job: fetches a remote archive (through the outbound rules), extracts it safely
 * into a work directory of its own, checks `VERSION`, verifies and fetches `project.bundle`,
 * then reads every relation in ONE transaction that also marks the import `finished` (and, for
 * an overwrite, removes the old project and gives its path to the new one). Any failure rolls
 * the relations back, empties the repository and records `failed` with `import_error`.
 */
@Injectable()
export class RunImportUseCase {
  private readonly logger = new Logger(RunImportUseCase.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly transfers: ProjectTransferRepository,
    private readonly projects: ProjectsRepository,
    private readonly members: MembersRepository,
    private readonly users: UsersRepository,
    private readonly importer: ProjectImporter,
    private readonly files: TransferFiles,
    private readonly storage: RepositoryStorage,
    private readonly outbound: OutboundTransfer,
    private readonly outbox: OutboxService,
    private readonly limits: ImportLimits,
  ) {}

  async execute(projectId: number): Promise<{ status: string }> {
    const state = await this.transfers.importState(projectId);
    if (!state || !['scheduled', 'started'].includes(state.status)) return { status: 'done' };
    const project = await this.projects.findById(projectId);
    if (!project) return { status: 'gone' };
    const attempts = await this.transfers.startImport(projectId);
    if (attempts === null) return { status: 'done' };
    // A run whose process ended under it left its work directory (and maybe a partial download).
    if (state.workKey) await this.files.remove(state.workKey);
    let fileKey = state.fileKey;
    if (state.sourceUrl && fileKey) {
      await this.files.remove(uploadDirectoryOf(fileKey));
      fileKey = null;
    }
    if (attempts > MAX_IMPORT_STARTS) {
      const message = interruptedMessage(attempts - 1);
      this.logger.error({ projectId, attempts }, 'project import not started again: its process ended while it ran, more than once');
      await this.storage.create(projectId, project.defaultBranch ?? 'main').catch(() => undefined);
      await this.recordFailure(project, state, message, []);
      if (fileKey) await this.files.remove(uploadDirectoryOf(fileKey));
      return { status: 'failed' };
    }
    const work = await this.files.newDirectory('work', `import-${projectId}`);
    await this.transfers.updateImportState(projectId, { workKey: work.key });
    const failures: RelationFailure[] = [];
    let removedRepository: number | null = null;
    try {
      if (!fileKey && state.sourceUrl) {
        const target = await this.files.newDirectory('imports', `remote-${projectId}`);
        fileKey = join(target.key, 'archive.tar.gz');
        await this.transfers.updateImportState(projectId, { fileKey });
        await this.outbound.download(state.sourceUrl, this.files.pathOf(fileKey), await this.limits.maxImportBytes());
      }
      if (!fileKey || !existsSync(this.files.pathOf(fileKey))) throw new ArchiveError('The archive is missing');
      const tree = join(work.path, 'tree');
      await mkdir(tree);
      await extractArchive(createReadStream(this.files.pathOf(fileKey)), tree, {
        maxBytes: this.config.projectTransfer.maxDecompressedBytes,
        maxEntries: MAX_ARCHIVE_ENTRIES,
        entryLimits: importEntryLimits,
      });
      const versionFile = join(tree, VERSION_FILE);
      if (!existsSync(versionFile)) throw new ArchiveError('The archive has no VERSION file: it is not a GitLab project export');
      const version = (await readFile(versionFile, 'utf8')).trim().slice(0, 50);
      if (!supportedVersion(version)) throw new ArchiveError(`Import version mismatch: Required 0.2.x but was ${version}`);
      await this.fetchBundle(project, join(tree, BUNDLE_FILE));
      const importer = await this.users.findByIdOrFail(state.userId);
      const outcome = await this.dataSource.transaction(async (tx) => {
        const result = await this.importer.run({ tx, project, importer, dir: tree, overrideParams: state.overrideParams });
        failures.push(...result.failures);
        await this.transfers.addFailures(tx, projectId, result.failures);
        if (state.replacesProjectId) {
          const old = await this.projects.findById(state.replacesProjectId, tx, { lock: true });
          if (old) {
            const context = await this.projects.hookContext(old, old.namespace, tx);
            await this.members.deleteOfProject(tx, old.id);
            await this.projects.delete(tx, old.id);
            await this.outbox.append(tx, projectEvent(NAMESPACE_EVENTS.PROJECT_DESTROY, state.userId, context));
            removedRepository = old.id;
          }
          await this.projects.renameImported(tx, projectId, state.finalPath!, state.finalName!);
        }
        await this.outbox.append(tx, result.events);
        await this.transfers.updateImportState(
          projectId,
          { status: 'finished', error: null, fileKey: null, workKey: null, skippedRelations: result.skipped },
          tx,
        );
        await this.outbox.append(
          tx,
          projectTransferEvent(
            PROJECT_TRANSFER_EVENTS.IMPORT_FINISHED,
            state.userId,
            state.replacesProjectId ? { ...project, path: state.finalPath!, name: state.finalName! } : project,
            {
              project_id: projectId,
              import_type: state.importType,
              correlation_id: state.correlationId,
              counts: result.counts,
              skipped_relations: result.skipped,
              failed_relations: result.failures.length + result.moreFailures,
              replaced_project_id: state.replacesProjectId,
            },
          ),
        );
        return result;
      });
      if (removedRepository !== null) await this.storage.remove(removedRepository).catch(() => undefined);
      this.logger.log(
        { projectId, counts: outcome.counts, skipped: outcome.skipped, failed: outcome.failures.length + outcome.moreFailures },
        'project imported',
      );
      return { status: 'finished' };
    } catch (error) {
      const message = error instanceof ArchiveError ? error.message : `${(error as Error).name}: ${(error as Error).message}`;
      this.logger.warn({ projectId, err: error }, 'project import failed');
      await this.storage.create(projectId, project.defaultBranch ?? 'main').catch(() => undefined);
      await this.recordFailure(project, state, message, failures);
      return { status: 'failed' };
    } finally {
      // Always, whatever happened (a failed import keeps nothing on disk).
      await this.files.remove(work.key);
      if (fileKey) await this.files.remove(uploadDirectoryOf(fileKey));
    }
  }

  /** Records `failed` with its `import_error`, the failed relations and the `project_import.failed` event, in one transaction. */
  private async recordFailure(project: ProjectWithNamespace, state: ProjectImportStateEntity, message: string, failures: RelationFailure[]): Promise<void> {
    const projectId = project.id;
    await this.dataSource.transaction(async (tx) => {
      await this.transfers.addFailures(tx, projectId, failures);
      await this.transfers.updateImportState(projectId, { status: 'failed', error: message.slice(0, 2000), fileKey: null, workKey: null }, tx);
      await this.outbox.append(
        tx,
        projectTransferEvent(PROJECT_TRANSFER_EVENTS.IMPORT_FAILED, state.userId, project, {
          project_id: projectId,
          import_type: state.importType,
          correlation_id: state.correlationId,
          import_error: message.slice(0, 2000),
        }),
      );
    });
  }

  /** Verifies the bundle against the (empty) repository, then fetches every ref of it; HEAD follows the archive's default branch. */
  private async fetchBundle(project: ProjectWithNamespace, bundle: string): Promise<void> {
    if (!existsSync(bundle)) return;
    const repository = await this.storage.open(project);
    try {
      await runGit(['--git-dir', repository.path, 'bundle', 'verify', '--quiet', bundle]);
      await runGit(['--git-dir', repository.path, 'fetch', '--quiet', '--no-tags', bundle, '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*']);
    } catch (error) {
      throw new ArchiveError(`The repository bundle is not valid: ${(error as Error).message.split('\n')[0].slice(0, 300)}`);
    }
    const branches = await repository.branches();
    const head = await repository.headBranch();
    if (branches.size > 0 && (!head || !branches.has(head))) {
      const chosen =
        project.defaultBranch && branches.has(project.defaultBranch)
          ? project.defaultBranch
          : branches.has('main')
            ? 'main'
            : branches.has('master')
              ? 'master'
              : [...branches.keys()][0];
      await repository.setHeadBranch(chosen);
      await this.projects.setImportedDefaultBranch(project.id, chosen);
    }
  }
}
