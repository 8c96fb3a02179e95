import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

/** Prefix of personal, impersonation, project and group access tokens. */
export const ACCESS_TOKEN_PREFIX = 'svcpat-';

/** SHA-256 hex digest: tokens carry 192 bits of randomness, so a fast digest is enough to store them. */
export const digestToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

export const generateAccessToken = (prefix = ACCESS_TOKEN_PREFIX): string => `${prefix}${randomBytes(24).toString('base64url')}`;

export const generateOpaqueToken = (): string => randomBytes(32).toString('hex');

/** Passwords: scrypt with a per-password salt, stored as `scrypt$<salt>$<hash>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const [kind, salt, hash] = (stored ?? '').split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length);
  return timingSafeEqual(actual, expected);
}
