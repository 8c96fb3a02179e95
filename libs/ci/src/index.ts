// libs/ci is built as one-way slices (docs/ci.md "Code layout"). A folder imports only the folders
// below it in this order, from the top down (the files directly in src/, this index and the
// modules, compose them all):
//
//   maintenance/                               housekeeping jobs (stuck jobs, expired artifacts, sweeps)
//   runners/  scheduling/  triggers/  reports/  the runner API; delayed jobs; push, merge request and bridge
//                                              pipelines; JUnit test reports (none imports another)
//   jobs/                                      job lifecycle, job and pipeline actions, job views
//   pipelines/                                 pipeline creation, processing, reads
//   queues/                                    runner wake-ups (LISTEN/NOTIFY), delayed-job timers (BullMQ)
//   events/ entities/ git/ config/ status/ storage/   the shared core (in this order too)
//
// Check: `node scripts/folder-cycles.mjs ci` (exit 1 when two folders import each other).
//
// Other libs, the apps and the tests use these names only.
export { CI_ENTITIES, CiJobEntity, CiPipelineEntity, CiStageEntity } from './entities';
export { COMPLETED_STATUSES, isCompleted, isJobStatus, JOB_STATUSES } from './status/ci-status';
export type { JobStatus } from './status/ci-status';
export { CiModule } from './ci.module';
export { CI_MAINTENANCE } from './queues/ci.jobs';
export { ObjectStorage } from './storage/object-storage';
export { CiPushConsumer } from './triggers/ci-push.consumer';
export { PipelineProcessingLine } from './pipelines/pipeline-processing-line';
export { PipelinesRepository } from './pipelines/pipelines.repository';
export { StartScheduledJobsUseCase } from './scheduling/start-scheduled-jobs.use-case';
export { DropStuckJobsUseCase } from './maintenance/drop-stuck-jobs.use-case';
export { ExpireArtifactsUseCase } from './maintenance/expire-artifacts.use-case';
