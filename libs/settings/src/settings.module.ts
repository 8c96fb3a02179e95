import { Global, Module } from '@nestjs/common';
import { SecretsModule } from '@app/secrets';
import { ApplicationSettingsController } from './application-settings.controller';
import { CachedSettingsReader } from './cached-settings.reader';
import { CreateRateLimiter, CreateRateLimitGuard } from './create-rate-limit';
import { CustomAttributeFilters } from './custom-attributes/custom-attribute-filters';
import { CustomAttributesRepository } from './custom-attributes/custom-attributes.repository';
import { InstanceMetadataController } from './instance-metadata.controller';
import { SettingsReader } from './settings-reader';
import { SettingsRepository } from './settings.repository';
import { UpdateApplicationSettingsUseCase } from './use-cases/update-application-settings.use-case';

/**
 * Application settings (`/application/settings`, cached and invalidated across processes
 * through Redis), and the read side of custom attributes (the list filters used by the identity and
 * namespaces libraries; their API and entities are in libs/custom-attributes, above both). Exports
 * the `SettingsReader`. Imports the global SecretsModule (the encryption of the secret settings).
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
    CustomAttributesRepository,
    CustomAttributeFilters,
    CreateRateLimiter,
    CreateRateLimitGuard,
  ],
  exports: [SettingsReader, CustomAttributeFilters, CustomAttributesRepository, UpdateApplicationSettingsUseCase, CreateRateLimiter, CreateRateLimitGuard],
})
export class SettingsModule {}
