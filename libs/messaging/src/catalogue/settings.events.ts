import { Type } from '@sinclair/typebox';
import { Changes, Data, defineEvents, Id } from './event-part';

const CustomAttributeData = Data({ resource_type: Type.String(), resource_id: Id, key: Type.String(), value: Type.String(), previous_value: Type.Optional(Type.Union([Type.String(), Type.Null()])) });

/** Events of `libs/settings`: application settings and custom attributes. */
export const SETTINGS_EVENT_PART = defineEvents({
  application_settings_update: { description: 'Application settings changed (secrets shown masked).', data: Data({ changed_keys: Type.Array(Type.String()), changes: Changes }) },
  custom_attribute_create: { description: 'A custom attribute was set on a user, group or project.', data: CustomAttributeData },
  custom_attribute_update: { description: 'A custom attribute changed value.', data: CustomAttributeData },
  custom_attribute_destroy: { description: 'A custom attribute was removed.', data: CustomAttributeData },
});
