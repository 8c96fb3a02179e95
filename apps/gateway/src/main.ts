import 'reflect-metadata';
import { AppConfig, ConfigValidationError } from '@app/config';
import { startGateway } from './bootstrap-gateway';

async function main(): Promise<void> {
  await startGateway(AppConfig.fromEnvironment());
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigValidationError ? error.message : (error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
