import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';

export class SecretDecryptionError extends Error {
  constructor(reason: string) {
    super(`cannot decrypt a stored secret: ${reason}`);
    this.name = 'SecretDecryptionError';
  }
}

/** A 32-byte key from 64 hex digits or base64 (standard or URL-safe); null when `text` is neither. */
export function parseEncryptionKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return key.length === 32 ? key : null;
  }
  return null;
}

/**
 * AES-256-GCM with a random 96-bit IV per value. A ciphertext reads
 * `v1:<key id>:<base64(iv | tag | ciphertext)>`; the key id (first bytes of the key's SHA-256)
 * tells a wrong key from tampering, and the associated data binds each ciphertext to its
 * purpose (the setting name), so a value cannot be moved to another column.
 */
export class SecretBox {
  readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
    this.keyId = createHash('sha256').update(key).digest('hex').slice(0, 8);
  }

  encrypt(plaintext: string, purpose: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(purpose, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}:${this.keyId}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  decrypt(ciphertext: string, purpose: string): string {
    const [version, keyId, payload, ...rest] = ciphertext.split(':');
    if (version !== VERSION || payload === undefined || rest.length > 0) throw new SecretDecryptionError('unknown format');
    if (keyId !== this.keyId) throw new SecretDecryptionError(`encrypted with another key (${keyId}); this process has ${this.keyId}`);
    const raw = Buffer.from(payload, 'base64');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new SecretDecryptionError('truncated');
    const decipher = createDecipheriv(ALGORITHM, this.key, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(purpose, 'utf8'));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretDecryptionError('authentication failed (tampered or wrong purpose)');
    }
  }
}
