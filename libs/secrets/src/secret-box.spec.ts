import { randomBytes } from 'node:crypto';
import { parseEncryptionKey, SecretBox, SecretDecryptionError } from './secret-box';

describe(SecretBox.name, () => {
  const key = randomBytes(32);
  const sut = new SecretBox(key);

  it('round-trips a value and never writes the plaintext', () => {
    const ciphertext = sut.encrypt('top secret ✓', 'application_settings.spamcheck_api_key');
    expect(ciphertext).toMatch(new RegExp(`^v1:${sut.keyId}:[A-Za-z0-9+/=]+$`));
    expect(ciphertext).not.toContain('top secret');
    expect(sut.decrypt(ciphertext, 'application_settings.spamcheck_api_key')).toBe('top secret ✓');
  });

  it('uses a fresh IV: the same value encrypts differently each time', () => {
    expect(sut.encrypt('same', 'p')).not.toBe(sut.encrypt('same', 'p'));
  });

  it('refuses another purpose, a tampered ciphertext and another key', () => {
    const ciphertext = sut.encrypt('value', 'a');
    expect(() => sut.decrypt(ciphertext, 'b')).toThrow(SecretDecryptionError);
    const [version, id, payload] = ciphertext.split(':');
    const bytes = Buffer.from(payload, 'base64');
    bytes[bytes.length - 1] ^= 1;
    expect(() => sut.decrypt(`${version}:${id}:${bytes.toString('base64')}`, 'a')).toThrow(/authentication failed/);
    expect(() => new SecretBox(randomBytes(32)).decrypt(ciphertext, 'a')).toThrow(/another key/);
    expect(() => sut.decrypt('plain text', 'a')).toThrow(/unknown format/);
  });

  it('needs a 32-byte key', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow();
  });
});

describe(parseEncryptionKey.name, () => {
  it('reads 64 hex digits and base64 (standard or URL-safe) of 32 bytes', () => {
    const key = randomBytes(32);
    expect(parseEncryptionKey(key.toString('hex'))).toEqual(key);
    expect(parseEncryptionKey(key.toString('base64'))).toEqual(key);
    expect(parseEncryptionKey(key.toString('base64url'))).toEqual(key);
  });

  it('refuses anything else', () => {
    expect(parseEncryptionKey('short')).toBeNull();
    expect(parseEncryptionKey(randomBytes(16).toString('hex'))).toBeNull();
    expect(parseEncryptionKey(randomBytes(24).toString('base64'))).toBeNull();
  });
});
