import { Global, Module } from '@nestjs/common';
import { SecretsModule } from '@app/secrets';
import { ApplicationSettingsController } from './application-settings.controller';
import { CachedSettingsReader } from './core/cached-settings.reader';
import { CreateRateLimiter, CreateRateLimitGuard } from './create-rate-limit';
import { InstanceMetadataController } from './instance-metadata.controller';
import { SettingsReader } from './core/settings-reader';
import { SettingsRepository } from './core/settings.repository';
import { UpdateApplicationSettingsUseCase } from './use-cases/update-application-settings.use-case';

/**
 * Application settings (`/application/settings`, cached and invalidated across processes
 * through Redis), instance metadata and the creation rate limits. Exports the `SettingsReader`. Imports the global SecretsModule (the encryption of the secret settings).
 * Global, like the configuration: any controller may use `@CreateRateLimit(...)`.
 * Needs the global ConfigModule, DatabaseModule, RedisModule and MessagingModule.
 */
@Global()
@Module({
  imports: [SecretsModule],
  controllers: [ApplicationSettingsController, InstanceMetadataController],
  providers: [
    SettingsRepository,
    CachedSettingsReader,
    { provide: SettingsReader, useExisting: CachedSettingsReader },
    UpdateApplicationSettingsUseCase,
    CreateRateLimiter,
    CreateRateLimitGuard,
  ],
  exports: [SettingsReader, UpdateApplicationSettingsUseCase, CreateRateLimiter, CreateRateLimitGuard],
})
export class SettingsModule {}
