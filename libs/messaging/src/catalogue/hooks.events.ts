import { Type } from '@sinclair/typebox';
import { Data, defineEvents, Id } from './event-part';

const SystemHookData = Data({
  hook_id: Id,
  url: Type.String({ description: 'without credentials' }),
  token_set: Type.Boolean(),
  push_events: Type.Boolean(),
  tag_push_events: Type.Boolean(),
  merge_requests_events: Type.Boolean(),
  repository_update_events: Type.Boolean(),
  enable_ssl_verification: Type.Boolean(),
  changed_attributes: Type.Optional(Type.Array(Type.String())),
});

/** Events of `libs/hooks`: system hook changes (never the token, nor the URL's credentials). */
export const HOOKS_EVENT_PART = defineEvents({
  system_hook_create: { description: 'A system hook was added.', data: SystemHookData },
  system_hook_update: { description: 'A system hook was changed (`changed_attributes`).', data: SystemHookData },
  system_hook_destroy: { description: 'A system hook was deleted.', data: SystemHookData },
});
