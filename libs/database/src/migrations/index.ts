// Every migration, in order. Generated with `npm run migration:generate -- libs/database/src/migrations/<Name>`
// against a database migrated to the previous one, then reviewed. Never edit a migration that has landed on main.
import { Initial1795344358118 } from './1795344358118-Initial';
import { IssuesAndEvents1795347982722 } from './1795347982722-IssuesAndEvents';
import { Alerting1795348067234 } from './1795348067234-Alerting';
import { SettingsAndCustomAttributes1795348164924 } from './1795348164924-SettingsAndCustomAttributes';
import { AlertLifecycle1795349951956 } from './1795349951956-AlertLifecycle';
import { EventsProjectListIndex1795350203033 } from './1795350203033-EventsProjectListIndex';
import { SystemHooks1795351881331 } from './1795351881331-SystemHooks';

export const MIGRATIONS: Function[] = [Initial1795344358118, IssuesAndEvents1795347982722, Alerting1795348067234, SettingsAndCustomAttributes1795348164924, AlertLifecycle1795349951956, EventsProjectListIndex1795350203033, SystemHooks1795351881331];
