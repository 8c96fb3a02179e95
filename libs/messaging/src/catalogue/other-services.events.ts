import { Type } from '@sinclair/typebox';
import { Data, defineEvents, Id } from './event-part';

const UserData = Data({ user_id: Id, name: Type.String(), username: Type.String(), email: Type.String() });

/**
 * Types this service consumes but does not publish yet: other services publish them to the
 * same stream (the projector and the system hooks act on them). When a library starts to
 * publish one, its entry moves to that library's part.
 */
export const OTHER_SERVICES_EVENT_PART = defineEvents({
  project_transfer: {
    description: 'A project moved to another namespace (system hook payload).',
    data: Data({ project_id: Id, path_with_namespace: Type.String(), old_path_with_namespace: Type.String() }),
  },
  user_rename: { description: 'A username changed (`old_username`).', data: Data({ ...UserData.properties, old_username: Type.String() }) },
  user_failed_login: { description: 'A blocked user tried to sign in (`state`).', data: Data({ ...UserData.properties, state: Type.String() }) },
  key_create: { description: 'An SSH key was added (system hook payload).', data: Data({ id: Id, key: Type.String(), username: Type.String() }) },
  key_destroy: { description: 'An SSH key was removed (system hook payload).', data: Data({ id: Id, key: Type.String(), username: Type.String() }) },
});
