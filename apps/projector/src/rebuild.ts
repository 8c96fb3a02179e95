import 'reflect-metadata';
import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppConfig, ConfigModule, ConfigValidationError } from '@app/config';
import { DatabaseModule } from '@app/database';
import { ProjectionsRebuildModule, RebuildProjectionsUseCase } from '@app/events';
import { MessagingModule } from '@app/messaging';
import { ENTITIES } from '../../entities';

/** What the rebuild command needs: the projection tables and Kafka (no consumer, no relay). */
@Module({})
class RebuildModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: RebuildModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(ENTITIES), MessagingModule.forRoot({ relay: false }), ProjectionsRebuildModule],
    };
  }
}

/**
 * `node dist/apps/projector/src/rebuild.js`: with every projector stopped, resets the
 * projector's consumer group to the start of the stream and truncates the projections; the
 * next projector start replays the whole topic into the same tables.
 */
async function main(): Promise<void> {
  const app = await NestFactory.createApplicationContext(RebuildModule.forRoot(AppConfig.fromEnvironment()), { logger: ['log', 'error', 'warn'] });
  try {
    await app.get(RebuildProjectionsUseCase).execute();
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  const message = error instanceof ConfigValidationError ? error.message : ((error as Error).stack ?? String(error));
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
