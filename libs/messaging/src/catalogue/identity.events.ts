import { Type } from '@sinclair/typebox';
import { Data, defineEvents, Id, NullableId } from './event-part';

const UserData = Data({ user_id: Id, name: Type.String(), username: Type.String(), email: Type.String() });

/** Events of `libs/identity`: users and access tokens (GitLab's system hook event names). */
export const IDENTITY_EVENT_PART = defineEvents({
  user_create: {
    description: 'A user was created.',
    data: Data({ user_id: Id, name: Type.String(), username: Type.String(), email: Type.String(), user_type: Type.Optional(Type.String()) }),
  },
  user_destroy: { description: 'A user was deleted.', data: UserData },
  user_block: { description: 'An administrator blocked a user.', data: UserData },
  user_unblock: { description: 'An administrator unblocked a user.', data: UserData },
  access_token_create: {
    description: 'A personal, impersonation, project or group access token was created (never its value).',
    data: Data({
      token_id: Id,
      user_id: Id,
      name: Type.String(),
      scopes: Type.Array(Type.String()),
      resource_type: Type.String(),
      resource_id: NullableId,
      impersonation: Type.Boolean(),
    }),
  },
  access_token_revoke: {
    description: 'An access token was revoked.',
    data: Data({ token_id: Id, user_id: Id, resource_type: Type.String(), resource_id: NullableId }),
  },
});
