import { DynamicModule, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppConfig, ConfigValidationError } from '@app/config';
import { installCrashHandlers, startObservabilityServer } from '@app/observability';
import { Logger } from 'nestjs-pino';

/** Boots a headless app (application context); optionally with its own health/metrics server. */
export async function startHeadlessApp(module: DynamicModule, config: AppConfig, options: { observability?: boolean }): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(module, { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  await app.init();
  if (options.observability) {
    const server = await startObservabilityServer(app, { host: config.http.host, port: config.http.observabilityPort });
    const close = app.close.bind(app);
    app.close = async () => {
      await server.close();
      await close();
    };
  }
  return app;
}

/** Entry point of a headless app run alone. */
export function runHeadlessApp(start: (config: AppConfig, options: { observability?: boolean }) => Promise<unknown>): void {
  Promise.resolve()
    .then(() => {
      const config = AppConfig.fromEnvironment();
      installCrashHandlers({ level: config.logLevel });
      return start(config, { observability: true });
    })
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof ConfigValidationError ? error.message : ((error as Error).stack ?? String(error))}\n`);
      process.exit(1);
    });
}
