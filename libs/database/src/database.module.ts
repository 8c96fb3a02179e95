import { DynamicModule, Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { DataSource } from 'typeorm';
import { createDataSource, EntityList } from './data-source';
import { ensureDatabase } from './ensure-database';
import { runMigrationsLocked } from './migrate';

/**
 * Provides the TypeORM `DataSource` over the entities the app passes (the composition root owns
 * the list): creates the database when missing and applies pending migrations under an advisory
 * lock (unless MIGRATIONS_RUN=false).
 */
@Global()
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  static forRoot(entities: EntityList): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        {
          provide: DataSource,
          inject: [AppConfig],
          useFactory: async (config: AppConfig): Promise<DataSource> => {
            const logger = new Logger('Database');
            if (config.database.migrationsRun) await ensureDatabase(config.database.url);
            const dataSource = await createDataSource(config, entities).initialize();
            if (config.database.migrationsRun) {
              const applied = await runMigrationsLocked(dataSource);
              if (applied.length) logger.log(`applied migrations: ${applied.join(', ')}`);
            }
            return dataSource;
          },
        },
      ],
      exports: [DataSource],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
