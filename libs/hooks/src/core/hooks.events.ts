import type { DomainEventData, DomainEventType, NewDomainEvent } from '@app/messaging';
import type { SystemHookEntity } from '../entities/system-hook.entity';
import { redactHookUrl } from './hook-url';

/** Domain event types of system hooks. Never rename: consumers match on them. */
export const SYSTEM_HOOK_EVENTS = {
  CREATE: 'system_hook_create',
  UPDATE: 'system_hook_update',
  DESTROY: 'system_hook_destroy',
} as const satisfies Record<string, DomainEventType>;

export type SystemHookEventType = (typeof SYSTEM_HOOK_EVENTS)[keyof typeof SYSTEM_HOOK_EVENTS];

/**
 * The event of a hook change. It never carries the token (only whether one is set) nor the
 * URL's credentials.
 */
export function systemHookEvent(
  type: SystemHookEventType,
  actorId: number,
  hook: SystemHookEntity,
  hasToken: boolean,
  extra: Pick<DomainEventData<SystemHookEventType>, 'changed_attributes'> = {},
): NewDomainEvent<SystemHookEventType> {
  const url = redactHookUrl(hook.url);
  return {
    type,
    actor: actorId,
    projectId: null,
    groupId: null,
    target: { type: 'system_hook', id: hook.id, title: url },
    data: {
      hook_id: hook.id,
      url,
      token_set: hasToken,
      push_events: hook.pushEvents,
      tag_push_events: hook.tagPushEvents,
      merge_requests_events: hook.mergeRequestsEvents,
      repository_update_events: hook.repositoryUpdateEvents,
      enable_ssl_verification: hook.enableSslVerification,
      ...extra,
    },
  };
}
