import { defineQueue } from '@app/queue';

// The BullMQ queue of project export and import. Never rename a queue or a job: stored in Redis with every job.

export interface ExportProjectPayload {
  projectId: number;
  /** The request this job serves (`project_exports.generation`): a job of an older request does nothing. */
  generation: number;
}

export interface ImportProjectPayload {
  projectId: number;
}

export const PROJECT_TRANSFER = defineQueue<{
  'export-project': ExportProjectPayload;
  'import-project': ImportProjectPayload;
  'prune-exports': Record<string, never>;
}>()('project-transfer', {
  EXPORT_PROJECT: 'export-project',
  IMPORT_PROJECT: 'import-project',
  /** Removes export archives older than 24 hours; every 15 minutes. */
  PRUNE_EXPORTS: 'prune-exports',
});

/** Deterministic job ids: a job enqueued again (after Redis lost it) is the same job. */
export const exportJobId = (projectId: number, generation: number): string => `export-${projectId}-${generation}`;
export const importJobId = (projectId: number): string => `import-${projectId}`;
