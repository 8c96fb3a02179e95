import { Type } from '@sinclair/typebox';
import { Data, defineEvents, Id } from './event-part';

const CustomAttributeData = Data({
  resource_type: Type.String(),
  resource_id: Id,
  key: Type.String(),
  value: Type.String(),
  previous_value: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

/** Events of `libs/custom-attributes`: custom attributes of users, groups and projects. */
export const CUSTOM_ATTRIBUTES_EVENT_PART = defineEvents({
  custom_attribute_create: { description: 'A custom attribute was set on a user, group or project.', data: CustomAttributeData },
  custom_attribute_update: { description: 'A custom attribute changed value.', data: CustomAttributeData },
  custom_attribute_destroy: { description: 'A custom attribute was removed.', data: CustomAttributeData },
});
