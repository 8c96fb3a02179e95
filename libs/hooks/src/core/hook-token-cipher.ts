import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { loadEncryptionKey, SecretBox } from '@app/secrets';

/** AES-GCM associated data of a hook token: a ciphertext cannot be moved to another column. */
export const HOOK_TOKEN_PURPOSE = 'system_hooks.token';

/**
 * Encrypts and decrypts system hook tokens with the key of the encrypted application
 * settings (`SETTINGS_ENCRYPTION_KEY`, or the key generated in DATA_DIR).
 */
@Injectable()
export class HookTokenCipher {
  private readonly logger = new Logger(HookTokenCipher.name);
  private readonly box: SecretBox;

  constructor(config: AppConfig) {
    this.box = new SecretBox(loadEncryptionKey(config, this.logger));
  }

  encrypt(token: string): string {
    return this.box.encrypt(token, HOOK_TOKEN_PURPOSE);
  }

  decrypt(ciphertext: string): string {
    return this.box.decrypt(ciphertext, HOOK_TOKEN_PURPOSE);
  }
}
