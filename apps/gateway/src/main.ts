import 'reflect-metadata';
import { AppConfig, ConfigValidationError } from '@app/config';
import { installCrashHandlers } from '@app/observability';
import { startGateway } from './bootstrap-gateway';

async function main(): Promise<void> {
  const config = AppConfig.fromEnvironment();
  installCrashHandlers({ level: config.logLevel });
  await startGateway(config);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigValidationError ? error.message : ((error as Error).stack ?? String(error))}\n`);
  process.exit(1);
});
