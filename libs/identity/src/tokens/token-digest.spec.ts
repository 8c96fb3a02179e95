import { digestToken, generateAccessToken, hashPassword, verifyPassword } from './token-digest';

describe('token digests', () => {
  it('gives a stable SHA-256 hex digest that differs per token', () => {
    expect(digestToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(digestToken('abd')).not.toBe(digestToken('abc'));
  });

  it('generates distinct prefixed tokens', () => {
    const a = generateAccessToken();
    const b = generateAccessToken();
    expect(a).toMatch(/^svcpat-[A-Za-z0-9_-]{32}$/);
    expect(a).not.toBe(b);
  });

  it('verifies only the right password', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).not.toContain('correct horse');
    await expect(verifyPassword('correct horse', stored)).resolves.toBe(true);
    await expect(verifyPassword('wrong horse', stored)).resolves.toBe(false);
    await expect(verifyPassword('x', null)).resolves.toBe(false);
  });
});
