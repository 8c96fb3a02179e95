import { CiJobArtifactEntity } from './ci-job-artifact.entity';
import { CiJobTraceEntity } from './ci-job-trace.entity';
import { CiJobEntity } from './ci-job.entity';
import { CiPipelineVariableEntity } from './ci-pipeline-variable.entity';
import { CiPipelineEntity } from './ci-pipeline.entity';
import { CiRunnerEntity, CiRunnerProjectEntity } from './ci-runner.entity';
import { CiStageEntity } from './ci-stage.entity';

export * from './ci-job-artifact.entity';
export * from './ci-job-options';
export * from './ci-job-trace.entity';
export * from './ci-job.entity';
export * from './ci-pipeline-variable.entity';
export * from './ci-pipeline.entity';
export * from './ci-runner.entity';
export * from './ci-stage.entity';

/** The entities of the CI library, listed in the data source's `ENTITIES`. */
export const CI_ENTITIES = [
  CiPipelineEntity,
  CiPipelineVariableEntity,
  CiStageEntity,
  CiJobEntity,
  CiJobArtifactEntity,
  CiJobTraceEntity,
  CiRunnerEntity,
  CiRunnerProjectEntity,
];
