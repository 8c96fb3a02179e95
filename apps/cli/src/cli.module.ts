import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig, ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { IdentityModule } from '@app/identity';
import { NamespacesModule } from '@app/namespaces';
import { MessagingModule } from '@app/messaging';
import { RedisModule } from '@app/queue';
import { ENTITIES } from '../../entities';

/** What the administrative commands need: identity use cases and the root bootstrap (namespaces) on the database (no relay, no HTTP). */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig = AppConfig.fromEnvironment()): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(ENTITIES),
        RedisModule,
        MessagingModule.forRoot({ relay: false }),
        IdentityModule,
        NamespacesModule,
      ],
    };
  }
}
