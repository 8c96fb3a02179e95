import type { DomainEventType } from '@app/messaging';

/** Domain event types of this library (declared in the catalogue, `@app/messaging`). Never rename. */
export const SETTINGS_EVENTS = {
  UPDATE: 'application_settings_update',
} as const satisfies Record<string, DomainEventType>;
