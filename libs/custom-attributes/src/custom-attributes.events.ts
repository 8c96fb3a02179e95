import type { DomainEventData, DomainEventType, NewDomainEvent } from '@app/messaging';
import type { CustomAttributeResource } from './custom-attribute-resource';

/** Domain event types of custom attributes (declared in the catalogue, `@app/messaging`). Never rename: consumers match on them. */
export const CUSTOM_ATTRIBUTE_EVENTS = {
  CREATE: 'custom_attribute_create',
  UPDATE: 'custom_attribute_update',
  DESTROY: 'custom_attribute_destroy',
} as const satisfies Record<string, DomainEventType>;

export type CustomAttributeEventType = (typeof CUSTOM_ATTRIBUTE_EVENTS)[keyof typeof CUSTOM_ATTRIBUTE_EVENTS];

export function customAttributeEvent(
  type: CustomAttributeEventType,
  actorId: number,
  resource: CustomAttributeResource,
  data: Omit<DomainEventData<CustomAttributeEventType>, 'resource_type' | 'resource_id'>,
): NewDomainEvent<CustomAttributeEventType> {
  return {
    type,
    actor: actorId,
    projectId: resource.type === 'project' ? resource.id : null,
    groupId: resource.type === 'group' ? resource.id : null,
    target: { type: resource.type, id: resource.id, title: resource.title },
    data: { resource_type: resource.type, resource_id: resource.id, ...data },
  };
}
