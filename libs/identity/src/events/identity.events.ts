import type { DomainEventType } from '@app/messaging';

/** Domain event types of this library (declared in the catalogue, `@app/messaging`); GitLab's system hook event names. Never rename. */
export const IDENTITY_EVENTS = {
  USER_CREATE: 'user_create',
  USER_DESTROY: 'user_destroy',
  USER_BLOCK: 'user_block',
  USER_UNBLOCK: 'user_unblock',
  ACCESS_TOKEN_CREATE: 'access_token_create',
  ACCESS_TOKEN_REVOKE: 'access_token_revoke',
} as const satisfies Record<string, DomainEventType>;
