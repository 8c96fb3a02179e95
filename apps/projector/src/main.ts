import 'reflect-metadata';
import { AppConfig } from '@app/config';
import { ProjectorModule } from './projector.module';
import { runHeadlessApp, startHeadlessApp } from '../../headless';

/** Starts the projector; `observability` serves health and metrics on OBSERVABILITY_PORT (run alone). */
export const startProjector = (config: AppConfig, options: { observability?: boolean } = {}) =>
  startHeadlessApp(ProjectorModule.forRoot(config), config, options);

if (require.main === module) runHeadlessApp(startProjector);
