import type { DomainEventData, DomainEventType, NewDomainEvent } from '@app/messaging';
import type { EpicEntity } from '../entities/epic.entity';

/** Domain event types of epics. Never rename: they are stored in the stream. */
export const EPIC_EVENTS = {
  CREATED: 'epic.created',
  UPDATED: 'epic.updated',
  CLOSED: 'epic.closed',
  REOPENED: 'epic.reopened',
  DESTROYED: 'epic.destroyed',
} as const satisfies Record<string, DomainEventType>;

export type EpicEventType = (typeof EPIC_EVENTS)[keyof typeof EPIC_EVENTS];

/** The event of an epic change (group-level: no project; events cannot be linked to epics in the API). */
export function epicEvent(
  type: EpicEventType,
  actorId: number,
  epic: EpicEntity,
  data: Omit<DomainEventData<EpicEventType>, 'epic'> = {},
): NewDomainEvent<EpicEventType> {
  return {
    type,
    actor: actorId,
    projectId: null,
    groupId: epic.groupId,
    target: { type: 'epic', id: epic.id, iid: epic.iid, title: epic.title },
    data: { epic: { id: epic.id, iid: epic.iid, title: epic.title, state: epic.state, confidential: epic.confidential, labels: epic.labels }, ...data },
  };
}
