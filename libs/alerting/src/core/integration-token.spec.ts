import { digestIntegrationToken, generateIntegrationToken, integrationTokenMatches, notifyCredentialOf } from './integration-token';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe(notifyCredentialOf.name, () => {
  it('reads a Bearer key, whatever the scheme case', () => {
    expect(notifyCredentialOf('Bearer abc123')).toBe('abc123');
    expect(notifyCredentialOf('bearer   abc123  ')).toBe('abc123');
  });

  it('reads the password of Basic credentials (empty user, or URL user-info), keeping colons in it', () => {
    expect(notifyCredentialOf(basic('', 'key'))).toBe('key');
    expect(notifyCredentialOf(basic('someone', 'k:e:y'))).toBe('k:e:y');
  });

  it('has no key without a header, with another scheme, or with an empty secret', () => {
    for (const header of [undefined, '', 'Bearer', 'Bearer ', 'Token abc', 'abc', basic('user', ''), 'Basic !!!']) {
      expect(notifyCredentialOf(header)).toBeNull();
    }
  });
});

describe(integrationTokenMatches.name, () => {
  it('matches the key against its SHA-256 digest only', () => {
    const token = generateIntegrationToken();
    const digest = digestIntegrationToken(token);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(integrationTokenMatches(token, digest)).toBe(true);
    expect(integrationTokenMatches(`${token}x`, digest)).toBe(false);
    expect(integrationTokenMatches(token.toUpperCase(), digest)).toBe(false);
    expect(integrationTokenMatches(token, 'not-a-digest')).toBe(false);
  });
});
