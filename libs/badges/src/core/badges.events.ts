import type { DomainEventData, DomainEventType, NewDomainEvent } from '@app/messaging';
import type { BadgeEntity } from '../entities/badge.entity';

/** Domain event types of badges. Never rename: consumers match on them. */
export const BADGE_EVENTS = {
  CREATED: 'badge.created',
  UPDATED: 'badge.updated',
  DESTROYED: 'badge.destroyed',
} as const satisfies Record<string, DomainEventType>;

export type BadgeEventType = (typeof BADGE_EVENTS)[keyof typeof BADGE_EVENTS];

/** The event of a badge change; `project_id` for project badges, `group_id` for group badges (and a project's group). */
export function badgeEvent(
  type: BadgeEventType,
  actorId: number,
  badge: BadgeEntity,
  owner: { projectId: number | null; groupId: number | null },
  extra: Pick<DomainEventData<BadgeEventType>, 'changed'> = {},
): NewDomainEvent<BadgeEventType> {
  return {
    type,
    actor: actorId,
    projectId: owner.projectId,
    groupId: owner.groupId,
    target: { type: 'badge', id: badge.id, title: badge.name },
    data: { badge_id: badge.id, kind: badge.kind, name: badge.name, link_url: badge.linkUrl, image_url: badge.imageUrl, ...extra },
  };
}
