import { Global, Module } from '@nestjs/common';
import { SettingsEncryption } from './settings-encryption';

/**
 * The service's encrypted columns (secret application settings, project runner tokens, CI
 * variables): `SettingsEncryption`, one key per process (`SETTINGS_ENCRYPTION_KEY` or the key
 * generated in DATA_DIR). Global, like the configuration; imported by SettingsModule, so every
 * composition that has the settings has it. Needs the global ConfigModule.
 */
@Global()
@Module({
  providers: [SettingsEncryption],
  exports: [SettingsEncryption],
})
export class SecretsModule {}
