import { Type } from '@sinclair/typebox';
import { Changes, Data, defineEvents } from './event-part';

/** Events of `libs/settings`: application settings. */
export const SETTINGS_EVENT_PART = defineEvents({
  application_settings_update: { description: 'Application settings changed (secrets shown masked).', data: Data({ changed_keys: Type.Array(Type.String()), changes: Changes }) },
});
