import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '@app/api';
import { UsersRepository } from '@app/identity';
import { ProjectsRepository, ProjectWithNamespace } from '@app/namespaces';
import { OutboxService } from '@app/messaging';
import { SettingsReader } from '@app/settings';
import type { Queue } from 'bullmq';
import { createWriteStream } from 'node:fs';
import { rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { exportFileName } from '../archive/archive-format';
import { packDirectory } from '../archive/tar-archive';
import type { ProjectExportEntity } from '../entities/project-export.entity';
import { ProjectExporter } from '../export/project-exporter';
import { OutboundTransfer } from '../outbound/outbound-transfer';
import { exportJobId, PROJECT_TRANSFER } from '../queues/project-transfer.jobs';
import { PROJECT_TRANSFER_EVENTS, projectTransferEvent } from '../events/project-transfer.events';
import { ProjectTransferRepository } from '../repositories/project-transfer.repository';
import { EXPORT_TTL_MS, TransferFiles } from '../files/transfer-files';

export interface RequestExportCommand {
  project: ProjectWithNamespace;
  actorId: number;
  description?: string;
  upload?: { url: string; method: 'PUT' | 'POST' };
  correlationId: string | null;
}

/** Whether the row's archive is still there to download. */
export const downloadable = (row: ProjectExportEntity | null, now = Date.now()): row is ProjectExportEntity & { fileKey: string } =>
  !!row && !!row.fileKey && (!row.expiresAt || row.expiresAt.getTime() > now);

/**
 * `POST /projects/:id/export`: records the request (`queued`, or `regeneration_in_progress`
 * while an earlier archive is still downloadable) and enqueues the job. The row is the record:
 * if Redis loses the job, the recovery enqueues it again.
 */
@Injectable()
export class RequestExportUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transfers: ProjectTransferRepository,
    private readonly outbound: OutboundTransfer,
    @InjectQueue(PROJECT_TRANSFER.name) private readonly queue: Queue,
  ) {}

  async execute(command: RequestExportCommand): Promise<void> {
    if (command.upload) {
      try {
        await this.outbound.check(command.upload.url);
      } catch (error) {
        throw DomainError.badRequest(`upload[url] is blocked: ${(error as Error).message}`);
      }
    }
    const generation = await this.dataSource.transaction(async (tx) => {
      const row = await this.transfers.lockExport(tx, command.project.id);
      const status = downloadable(row) ? 'regeneration_in_progress' : 'queued';
      const next = (row?.generation ?? 0) + 1;
      const values = {
        status,
        generation: next,
        userId: command.actorId,
        description: command.description ?? null,
        uploadUrl: command.upload?.url ?? null,
        uploadMethod: command.upload?.method ?? null,
        error: null,
        correlationId: command.correlationId,
      } as const;
      if (row) await this.transfers.updateExport(tx, command.project.id, values);
      else await this.transfers.insertExport(tx, { projectId: command.project.id, ...values, fileKey: null, fileName: null, fileSize: null, expiresAt: null });
      return next;
    });
    await enqueueExport(this.queue, command.project.id, generation).catch(() => undefined);
  }
}

export const enqueueExport = (queue: Queue, projectId: number, generation: number) =>
  queue.add(
    PROJECT_TRANSFER.jobs.EXPORT_PROJECT,
    { projectId, generation },
    { jobId: exportJobId(projectId, generation), attempts: 3, backoff: { type: 'exponential', delay: 5_000 }, removeOnComplete: 1000, removeOnFail: 1000 },
  );

/**
 * The export job: writes the tree, packs it (streamed, gzip) to a new archive, bounds it by
 * `max_export_size`, sends it to `upload[url]` when asked, then records it `finished` for 24
 * hours and removes the previous archive. A job of an outdated request does nothing.
 */
@Injectable()
export class RunExportUseCase {
  private readonly logger = new Logger(RunExportUseCase.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly transfers: ProjectTransferRepository,
    private readonly projects: ProjectsRepository,
    private readonly users: UsersRepository,
    private readonly exporter: ProjectExporter,
    private readonly files: TransferFiles,
    private readonly settings: SettingsReader,
    private readonly outbound: OutboundTransfer,
    private readonly outbox: OutboxService,
  ) {}

  async execute(projectId: number, generation: number): Promise<{ status: string }> {
    const row = await this.transfers.export(projectId);
    if (!row || row.generation !== generation || !['queued', 'started', 'regeneration_in_progress'].includes(row.status)) return { status: 'outdated' };
    const project = await this.projects.findById(projectId);
    if (!project) return { status: 'gone' };
    if (row.status === 'queued') await this.transfers.updateExportGeneration(projectId, generation, { status: 'started' });
    const work = await this.files.newDirectory('work', `export-${projectId}`);
    let target: { key: string; path: string } | null = null;
    try {
      const exporter = await this.users.findById(row.userId);
      // Every read of the archive in one read-only snapshot (docs/project-transfer.md "Export").
      const tree = await this.transfers.readSnapshot((manager) =>
        this.exporter.write(project, work.path, manager, { description: row.description, exporterIsAdmin: exporter?.isAdmin ?? false }),
      );
      target = await this.files.newDirectory('exports', `project-${projectId}`);
      const name = exportFileName(`${project.namespace.fullPath}/${project.path}`, new Date());
      const partial = join(target.path, `${name}.part`);
      await packDirectory(work.path, tree.files, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
      await rename(partial, join(target.path, name));
      const { size } = await stat(join(target.path, name));
      const maxMb = (await this.settings.get()).number('max_export_size');
      if (maxMb > 0 && size > maxMb * 1024 * 1024) throw new Error(`The export is larger than max_export_size (${maxMb} MB)`);
      if (row.uploadUrl) await this.outbound.upload(row.uploadUrl, row.uploadMethod ?? 'PUT', join(target.path, name), size);
      const previous = await this.dataSource.transaction(async (tx) => {
        const current = await this.transfers.lockExport(tx, projectId);
        if (!current || current.generation !== generation) return null;
        await this.transfers.updateExport(tx, projectId, {
          status: 'finished',
          fileKey: join(target!.key, name),
          fileName: name,
          fileSize: String(size),
          expiresAt: new Date(Date.now() + EXPORT_TTL_MS),
          error: null,
        });
        await this.outbox.append(
          tx,
          projectTransferEvent(PROJECT_TRANSFER_EVENTS.EXPORT_FINISHED, row.userId, project, {
            project_id: projectId,
            generation,
            correlation_id: row.correlationId,
            file_name: name,
            file_size: size,
            uploaded: row.uploadUrl !== null,
            counts: tree.counts,
          }),
        );
        return { key: current.fileKey };
      });
      if (!previous) {
        await this.files.remove(target.key);
        return { status: 'outdated' };
      }
      if (previous.key) await this.files.remove(previous.key.split('/').slice(0, 2).join('/'));
      this.logger.log({ projectId, size, counts: tree.counts }, 'project exported');
      return { status: 'finished' };
    } catch (error) {
      if (target) await this.files.remove(target.key);
      this.logger.warn({ projectId, err: error }, 'project export failed');
      // The previous archive (if any) stays downloadable; the status says the regeneration failed.
      const message = (error as Error).message.slice(0, 1000);
      await this.dataSource.transaction(async (tx) => {
        const failed = await this.transfers.updateExportGeneration(projectId, generation, { status: 'failed', error: message }, tx);
        // Only when this request is still the current one (a newer request has its own outcome).
        if (failed) {
          await this.outbox.append(
            tx,
            projectTransferEvent(PROJECT_TRANSFER_EVENTS.EXPORT_FAILED, row.userId, project, {
              project_id: projectId,
              generation,
              correlation_id: row.correlationId,
              error: message,
            }),
          );
        }
      });
      return { status: 'failed' };
    } finally {
      await this.files.remove(work.key);
    }
  }
}

/** Removes export archives past their 24 hours (the scheduled `prune-exports` job). */
@Injectable()
export class PruneExportsUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transfers: ProjectTransferRepository,
    private readonly files: TransferFiles,
  ) {}

  async execute(now = new Date()): Promise<number> {
    const expired = await this.transfers.expiredExports(now);
    for (const row of expired) {
      if (row.fileKey) await this.files.remove(row.fileKey.split('/').slice(0, 2).join('/'));
      const finished = row.status === 'finished' ? { status: 'none' as const } : {};
      await this.transfers.updateExportGeneration(row.projectId, row.generation, {
        fileKey: null,
        fileName: null,
        fileSize: null,
        expiresAt: null,
        ...finished,
      });
    }
    return expired.length;
  }
}
