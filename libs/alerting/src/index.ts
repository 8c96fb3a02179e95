// libs/alerting: folders import only the folders below them (docs/alerts.md "Code layout"):
//   lifecycle/ -> presenters/;  use-cases/ -> ingestion/;  live/;  all -> core/ -> entities/, dto/ -> engine/
// The files directly in src/ (this index, the modules, the controllers, the notify routes) compose them
// and are imported by none. Check: `node scripts/folder-cycles.mjs alerting`.
export * from './core/alerting.events';
export * from './alerting.module';
export * from './engine';
export * from './entities';
export * from './core/notify-url';
export * from './alert-notify.routes';
export * from './lifecycle';
export * from './alert-lifecycle.module';
export * from './alert-incidents.module';
export * from './use-cases/receive-alert-notification.use-case';
export * from './live';
