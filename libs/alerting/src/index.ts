// libs/alerting: folders import only the folders below them (docs/alerts.md "Code layout"):
//   lifecycle/ -> presenters/;  use-cases/ -> ingestion/;  live/;  all -> core/ -> entities/, dto/ -> engine/
// The files directly in src/ (this index, the modules, the controllers, the notify routes) compose them
// and are imported by none. Check: `node scripts/folder-cycles.mjs alerting`.
//
// Other libs, the apps and the tests use these names only.
export { ALERT_EVENTS } from './core/alerting.events';
export { AlertingModule } from './alerting.module';
export { fingerprintOf } from './engine';
export { ALERTING_ENTITIES } from './entities';
export { registerAlertNotifyRoutes } from './alert-notify.routes';
export { CreateAlertIncidentUseCase } from './lifecycle';
export { AlertLifecycleModule } from './alert-lifecycle.module';
export { AlertIncidentsModule } from './alert-incidents.module';
export { ReceiveAlertNotificationUseCase } from './use-cases/receive-alert-notification.use-case';
export { AlertLiveHub, AlertLiveModule } from './live';
