export * from './alert-bot.repository';
export * from './alert-lifecycle.consumer';
export * from './alert-state-events.repository';
export * from './close-alert-incident.use-case';
export * from './create-alert-incident.use-case';
export * from './incident-severity';
export * from './create-incident-from-alert.use-case';
