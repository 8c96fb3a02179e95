import 'reflect-metadata';
import { AppConfig } from '@app/config';
import { AlertEngineModule } from './alert-engine.module';
import { runHeadlessApp, startHeadlessApp } from '../../headless';

/** Starts the alert engine; `observability` serves health and metrics on OBSERVABILITY_PORT (run alone). */
export const startAlertEngine = (config: AppConfig, options: { observability?: boolean } = {}) =>
  startHeadlessApp(AlertEngineModule.forRoot(config), config, options);

if (require.main === module) runHeadlessApp(startAlertEngine);
