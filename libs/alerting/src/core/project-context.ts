import type { ResourceAccess } from '@app/api';
import { DomainError } from '@app/api';
import { projectOf } from '@app/namespaces';

/** What alerting needs of the project resolved by `@ProjectAccess`. */
export function projectContextOf(access: ResourceAccess): { id: number; groupId: number | null; fullPath: string } {
  const project = projectOf(access);
  return {
    id: project.id,
    groupId: project.namespace.kind === 'group' ? project.namespace.id : null,
    fullPath: `${project.namespace.fullPath}/${project.path}`,
  };
}
