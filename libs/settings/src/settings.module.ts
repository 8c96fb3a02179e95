import { Global, Module } from '@nestjs/common';
import { ApplicationSettingsController } from './application-settings.controller';
import { CachedSettingsReader } from './cached-settings.reader';
import { CreateRateLimiter, CreateRateLimitGuard } from './create-rate-limit';
import { SettingsEncryption } from './crypto/settings-encryption';
import { CustomAttributeFilters } from './custom-attributes/custom-attribute-filters';
import { CustomAttributesController } from './custom-attributes/custom-attributes.controller';
import { CustomAttributesRepository } from './custom-attributes/custom-attributes.repository';
import { DeleteCustomAttributeUseCase } from './custom-attributes/delete-custom-attribute.use-case';
import { SetCustomAttributeUseCase } from './custom-attributes/set-custom-attribute.use-case';
import { SettingsReader } from './settings-reader';
import { SettingsRepository } from './settings.repository';
import { UpdateApplicationSettingsUseCase } from './use-cases/update-application-settings.use-case';

/**
 * Application settings (`/application/settings`, cached and invalidated across processes
 * through Redis) and custom attributes of users, groups and projects. Exports the
 * `SettingsReader` and the list filters used by the identity and namespaces libraries.
 * Global, like the configuration: any controller may use `@CreateRateLimit(...)`.
 * Needs the global ConfigModule, DatabaseModule, RedisModule and MessagingModule.
 */
@Global()
@Module({
  controllers: [ApplicationSettingsController, CustomAttributesController],
  providers: [
    SettingsRepository,
    SettingsEncryption,
    CachedSettingsReader,
    { provide: SettingsReader, useExisting: CachedSettingsReader },
    UpdateApplicationSettingsUseCase,
    CustomAttributesRepository,
    CustomAttributeFilters,
    SetCustomAttributeUseCase,
    DeleteCustomAttributeUseCase,
    CreateRateLimiter,
    CreateRateLimitGuard,
  ],
  exports: [SettingsEncryption, SettingsReader, CustomAttributeFilters, UpdateApplicationSettingsUseCase, CreateRateLimiter, CreateRateLimitGuard],
})
export class SettingsModule {}
