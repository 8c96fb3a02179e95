import 'reflect-metadata';
import { AppConfig, ConfigValidationError } from '@app/config';
import { installCrashHandlers } from '@app/observability';
import { startAlertEngine } from '../../alert-engine/src/main';
import { startGateway } from '../../gateway/src/bootstrap-gateway';
import { startProjector } from '../../projector/src/main';

/** Single-machine deployment: gateway, alert-engine and projector in one process. */
async function main(): Promise<void> {
  const config = AppConfig.fromEnvironment();
  installCrashHandlers({ level: config.logLevel });
  // The gateway applies the migrations first; the others start against a ready schema.
  await startGateway(config);
  await Promise.all([startAlertEngine(config), startProjector(config)]);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigValidationError ? error.message : ((error as Error).stack ?? String(error))}\n`);
  process.exit(1);
});
