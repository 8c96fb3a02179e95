import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { JobWorker, OnJob, QueueWorker } from '@app/queue';
import type { Queue } from 'bullmq';
import { ExportProjectPayload, exportJobId, ImportProjectPayload, importJobId, PROJECT_TRANSFER } from './queues/project-transfer.jobs';
import { ProjectTransferRepository } from './repositories/project-transfer.repository';
import { enqueueExport, PruneExportsUseCase, RunExportUseCase } from './use-cases/export.use-cases';
import { enqueueImport, RunImportUseCase } from './use-cases/import.use-cases';

/** How often the status records are compared with the queue (and how old a record must be to be checked). */
export const TRANSFER_RECOVERY_INTERVAL_MS = 60_000;

/** Runs exports, imports and the expiry of export archives (one job at a time per process: they are heavy). */
@QueueWorker(PROJECT_TRANSFER, { concurrency: 2 })
export class ProjectTransferProcessor extends JobWorker {
  constructor(
    private readonly runExport: RunExportUseCase,
    private readonly runImport: RunImportUseCase,
    private readonly pruneExports: PruneExportsUseCase,
  ) {
    super();
  }

  @OnJob(PROJECT_TRANSFER, PROJECT_TRANSFER.jobs.EXPORT_PROJECT)
  exportProject({ projectId, generation }: ExportProjectPayload): Promise<{ status: string }> {
    return this.runExport.execute(projectId, generation);
  }

  @OnJob(PROJECT_TRANSFER, PROJECT_TRANSFER.jobs.IMPORT_PROJECT)
  importProject({ projectId }: ImportProjectPayload): Promise<{ status: string }> {
    return this.runImport.execute(projectId);
  }

  @OnJob(PROJECT_TRANSFER, PROJECT_TRANSFER.jobs.PRUNE_EXPORTS, { schedule: { cron: '*/15 * * * *' }, data: {} })
  async prune(): Promise<{ removed: number }> {
    return { removed: await this.pruneExports.execute() };
  }
}

/**
 * Rebuilds the queue from PostgreSQL: an export or import whose record says it waits or runs,
 * unchanged for a recovery interval, and whose job is not in Redis (Redis restarted empty) is
 * enqueued again under its deterministic job id. Runs at start and every minute.
 */
@Injectable()
export class ProjectTransferRecovery implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ProjectTransferRecovery.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly transfers: ProjectTransferRepository,
    @InjectQueue(PROJECT_TRANSFER.name) private readonly queue: Queue,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), TRANSFER_RECOVERY_INTERVAL_MS);
    this.timer.unref();
    void this.sweep();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  sweep(olderThanMs = TRANSFER_RECOVERY_INTERVAL_MS): Promise<number> {
    this.running ??= this.rebuild(new Date(Date.now() - olderThanMs))
      .catch((error: unknown) => {
        this.logger.warn(`transfer queue not compared with PostgreSQL: ${(error as Error).message}`);
        return 0;
      })
      .finally(() => (this.running = null));
    return this.running;
  }

  /** Enqueues the jobs missing from Redis; resolves with how many. */
  async rebuild(before: Date): Promise<number> {
    let rebuilt = 0;
    for (const row of await this.transfers.pendingExports(before)) {
      const job = await this.queue.getJob(exportJobId(row.projectId, row.generation));
      if (job && !(await job.isCompleted()) && !(await job.isFailed())) continue;
      if (job) await job.remove().catch(() => undefined);
      await enqueueExport(this.queue, row.projectId, row.generation);
      rebuilt += 1;
    }
    for (const row of await this.transfers.pendingImports(before)) {
      const job = await this.queue.getJob(importJobId(row.projectId));
      if (job && !(await job.isCompleted()) && !(await job.isFailed())) continue;
      if (job) await job.remove().catch(() => undefined);
      await enqueueImport(this.queue, row.projectId);
      rebuilt += 1;
    }
    if (rebuilt > 0) this.logger.warn(`rebuilt ${rebuilt} project transfer jobs missing from Redis`);
    return rebuilt;
  }
}
