import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseEncryptionKey, SecretBox } from './secret-box';

/** File of the generated key (under DATA_DIR) used when SETTINGS_ENCRYPTION_KEY is unset. */
export const GENERATED_KEY_FILE = 'secrets/settings-encryption.key';

/**
 * The key generated on first start and kept in DATA_DIR (mode 0600), as GitLab generates its
 * secrets file: never a key anyone else knows. Back it up with the database: without it the
 * encrypted settings cannot be read.
 */
export function loadOrCreateGeneratedKey(dataDir: string, logger?: Logger): Buffer {
  const file = join(dataDir, GENERATED_KEY_FILE);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
    logger?.log(`generated the settings encryption key in ${file}; keep it with your backups, or set SETTINGS_ENCRYPTION_KEY`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = parseEncryptionKey(readFileSync(file, 'utf8').trim());
  if (!key) throw new Error(`${file} does not hold a 32-byte key`);
  return key;
}

/** The key of the service's encrypted columns: `SETTINGS_ENCRYPTION_KEY`, else the generated one. */
export function loadEncryptionKey(config: AppConfig, logger?: Logger): Buffer {
  const configured = config.settings.encryptionKey;
  if (!configured) return loadOrCreateGeneratedKey(config.dataDir, logger);
  const key = parseEncryptionKey(configured);
  if (!key) throw new Error('SETTINGS_ENCRYPTION_KEY must be 32 bytes as 64 hex digits or base64');
  return key;
}

/** The purpose bound to a setting's ciphertext (AES-GCM associated data). */
export const settingPurpose = (name: string): string => `application_settings.${name}`;

/** Encrypts and decrypts the secret application settings with the configured key. */
@Injectable()
export class SettingsEncryption {
  private readonly logger = new Logger(SettingsEncryption.name);
  private readonly box: SecretBox;

  constructor(config: AppConfig) {
    this.box = new SecretBox(loadEncryptionKey(config, this.logger));
  }

  get keyId(): string {
    return this.box.keyId;
  }

  encrypt(name: string, plaintext: string): string {
    return this.box.encrypt(plaintext, settingPurpose(name));
  }

  decrypt(name: string, ciphertext: string): string {
    return this.box.decrypt(ciphertext, settingPurpose(name));
  }

  /** Another encrypted column of the service, with the same key; `purpose` binds the value to it (e.g. `projects.runners_token`). */
  seal(purpose: string, plaintext: string): string {
    return this.box.encrypt(plaintext, purpose);
  }

  unseal(purpose: string, ciphertext: string): string {
    return this.box.decrypt(ciphertext, purpose);
  }
}
