import type { CiArtifacts, CiImage, CiRetry, CiService, CiTrigger } from '../config/ci-config.types';

/** What a job keeps from its configuration (stored as JSON on the job). */
export interface CiJobOptions {
  script?: string[];
  beforeScript?: string[];
  afterScript?: string[];
  image?: CiImage | null;
  services?: CiService[];
  artifacts?: CiArtifacts | null;
  cache?: unknown[];
  retry?: CiRetry;
  /** Jobs whose artifacts this job downloads (null: every job of earlier stages / its needs). */
  dependencies?: string[] | null;
  /** Needs whose artifacts are not downloaded (`needs: [{job, artifacts: false}]`). */
  needsWithoutArtifacts?: string[];
  allowFailureExitCodes?: number[];
  coverageRegex?: string | null;
  timeoutSeconds?: number | null;
  startIn?: string | null;
  environment?: string | null;
  interruptible?: boolean;
  trigger?: CiTrigger | null;
}
