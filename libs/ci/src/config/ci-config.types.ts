import type { JobWhen } from '../status/pipeline-processing';

export type VariableMap = Record<string, string>;

export interface CiImage {
  name: string;
  entrypoint?: string[];
  pull_policy?: string[];
}

export interface CiService extends CiImage {
  alias?: string;
  command?: string[];
  variables?: VariableMap;
}

export interface CiRule {
  if?: string;
  changes?: string[];
  exists?: string[];
  when?: JobWhen;
  allowFailure?: boolean;
  variables?: VariableMap;
  /** `start_in` of a rule that makes the job `delayed`. */
  startIn?: string;
}

/** `only:` / `except:` in their normalized (hash) form. */
export interface CiRefFilter {
  refs?: string[];
  variables?: string[];
  changes?: string[];
}

export interface CiNeed {
  job: string;
  artifacts: boolean;
  optional: boolean;
}

export const REPORT_TYPES = [
  'junit',
  'sast',
  'dependency_scanning',
  'container_scanning',
  'dast',
  'secret_detection',
  'license_scanning',
  'coverage_fuzzing',
  'api_fuzzing',
  'cluster_image_scanning',
  'codequality',
  'performance',
  'browser_performance',
  'load_performance',
  'metrics',
  'terraform',
  'dotenv',
  'cobertura',
  'coverage_report',
  'requirements',
  'accessibility',
  'annotations',
  'cyclonedx',
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export interface CiArtifacts {
  name?: string;
  paths: string[];
  exclude: string[];
  untracked: boolean;
  when: 'on_success' | 'on_failure' | 'always';
  expireIn: string | null;
  /** Report type → files. `coverage_report` is kept as given. */
  reports: Partial<Record<ReportType, unknown>>;
}

export interface CiRetry {
  max: number;
  when: string[];
  exitCodes: number[];
}

export interface CiTrigger {
  /** Downstream project path (multi-project pipeline). */
  project?: string;
  branch?: string;
  /** Local files of the child pipeline's configuration. */
  include?: string[];
  strategy?: 'depend';
  forward?: { yaml_variables: boolean; pipeline_variables: boolean };
}

/** One visible job, every inherited and default value applied. */
export interface CiJobDefinition {
  name: string;
  stage: string;
  /** `bridge` when the job has `trigger:`. */
  kind: 'build' | 'bridge';
  script: string[];
  beforeScript: string[];
  afterScript: string[];
  image: CiImage | null;
  services: CiService[];
  variables: VariableMap;
  when: JobWhen;
  /** `allow_failure` as written (null: not given, the default depends on `when` and rules). */
  allowFailure: boolean | null;
  allowFailureExitCodes: number[];
  needs: CiNeed[] | null;
  rules: CiRule[] | null;
  only: CiRefFilter | null;
  except: CiRefFilter | null;
  tags: string[];
  timeoutSeconds: number | null;
  retry: CiRetry;
  artifacts: CiArtifacts | null;
  dependencies: string[] | null;
  cache: unknown[];
  coverage: string | null;
  interruptible: boolean;
  startIn: string | null;
  environment: string | null;
  trigger: CiTrigger | null;
}

/** A configuration that passed validation. */
export interface CiConfig {
  /** Ordered, with `.pre` first and `.post` last. */
  stages: string[];
  variables: VariableMap;
  workflowRules: CiRule[] | null;
  jobs: CiJobDefinition[];
}

export type CiConfigResult = { ok: true; config: CiConfig } | { ok: false; errors: string[] };

/** Reads a file of the repository at the pipeline's commit (for `include: local`); null when missing. */
export type CiFileReader = (path: string) => Promise<string | null>;
