import type { DomainEventData, DomainEventType, NewDomainEvent } from '@app/messaging';
import type { ProjectWithNamespace } from '@app/namespaces';

/** Domain event types of project export and import. Never rename: consumers match on them. */
export const PROJECT_TRANSFER_EVENTS = {
  EXPORT_FINISHED: 'project_export.finished',
  EXPORT_FAILED: 'project_export.failed',
  IMPORT_FINISHED: 'project_import.finished',
  IMPORT_FAILED: 'project_import.failed',
} as const satisfies Record<string, DomainEventType>;

type TransferEventType = (typeof PROJECT_TRANSFER_EVENTS)[keyof typeof PROJECT_TRANSFER_EVENTS];

/** The event of the end of an export or import of `project` (written with the status it records). */
export function projectTransferEvent<T extends TransferEventType>(
  type: T,
  actorId: number,
  project: ProjectWithNamespace,
  data: DomainEventData<T>,
): NewDomainEvent<T> {
  return {
    type,
    actor: actorId,
    projectId: project.id,
    groupId: project.namespace.kind === 'group' ? project.namespace.id : null,
    target: { type: 'project', id: project.id, title: project.name },
    data,
  } as NewDomainEvent<T>;
}
