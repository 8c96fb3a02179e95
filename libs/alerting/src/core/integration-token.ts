import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new authorization key: 32 random bytes, hex. */
export const generateIntegrationToken = (): string => randomBytes(32).toString('hex');

/** A new endpoint identifier (part of the notify URL): 16 hex characters. */
export const generateEndpointIdentifier = (): string => randomBytes(8).toString('hex');

/** Keys are stored as their SHA-256 digest (hex); the key itself is shown once. */
export const digestIntegrationToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** Constant-time comparison of a presented key with the stored digest. */
export function integrationTokenMatches(presented: string, storedDigest: string): boolean {
  const actual = hash('sha256', presented, 'buffer');
  const expected = Buffer.from(storedDigest, 'hex');
  return expected.length === actual.length && timingSafeEqual(actual, expected);
}

/**
 * The key of a notify request: `Authorization: Bearer <key>`, or `Authorization: Basic`
 * with the key as password (the user name is not used; clients put URL user-info there).
 * Null when the header is missing or of another scheme.
 */
export function notifyCredentialOf(authorization: string | string[] | undefined): string | null {
  const header = Array.isArray(authorization) ? authorization[0] : authorization;
  if (!header) return null;
  const match = /^\s*(\S+)\s+(.*?)\s*$/.exec(header);
  if (!match) return null;
  const scheme = match[1].toLowerCase();
  if (scheme === 'bearer') return match[2] === '' ? null : match[2];
  if (scheme === 'basic') {
    const decoded = Buffer.from(match[2], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const password = colon < 0 ? '' : decoded.slice(colon + 1);
    return password === '' ? null : password;
  }
  return null;
}
