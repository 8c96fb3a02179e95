export { SecretBox, SecretDecryptionError } from './secret-box';
export { loadEncryptionKey, SettingsEncryption } from './settings-encryption';
export { SecretsModule } from './secrets.module';
