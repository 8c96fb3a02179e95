import type { CiRunnerEntity } from '../entities/ci-runner.entity';
import { iso } from '../pipelines/pipeline.presenter';
import { runnerStatus } from '../entities/runner-tokens';

/** GitLab's `Entities::Ci::Runner` (list view). */
export function presentRunner(runner: CiRunnerEntity): Record<string, unknown> {
  const status = runnerStatus(runner);
  return {
    id: runner.id,
    description: runner.description,
    ip_address: runner.ipAddress,
    active: !runner.paused,
    paused: runner.paused,
    is_shared: runner.runnerType === 'instance_type',
    runner_type: runner.runnerType,
    name: runner.info.name ?? null,
    online: status === 'online',
    status,
  };
}

/** GitLab's `Entities::Ci::RunnerDetails`. */
export function presentRunnerDetails(
  runner: CiRunnerEntity,
  projects: { id: number; name: string; path: string; fullPath: string; nameWithNamespace: string }[],
): Record<string, unknown> {
  return {
    ...presentRunner(runner),
    tag_list: runner.tagList,
    run_untagged: runner.runUntagged,
    locked: runner.locked,
    maximum_timeout: runner.maximumTimeout,
    access_level: runner.accessLevel,
    version: runner.info.version ?? null,
    revision: runner.info.revision ?? null,
    platform: runner.info.platform ?? null,
    architecture: runner.info.architecture ?? null,
    contacted_at: iso(runner.contactedAt),
    created_at: iso(runner.createdAt),
    maintenance_note: runner.maintenanceNote,
    projects: projects.map((p) => ({ id: p.id, name: p.name, name_with_namespace: p.nameWithNamespace, path: p.path, path_with_namespace: p.fullPath })),
    groups: [],
  };
}
