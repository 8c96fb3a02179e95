import { Type } from '@sinclair/typebox';
import { Data, defineEvents } from './event-part';

/** `{from, to}` of each changed setting (secrets masked). */
const SettingChanges = Type.Record(Type.String(), Type.Object({ from: Type.Unknown(), to: Type.Unknown() }), {
  description: '`{from, to}` of each changed setting',
});

/** Events of `libs/settings`: application settings. */
export const SETTINGS_EVENT_PART = defineEvents({
  application_settings_update: {
    description: 'Application settings changed (secrets shown masked).',
    data: Data({ changed_keys: Type.Array(Type.String()), changes: SettingChanges }),
  },
});
