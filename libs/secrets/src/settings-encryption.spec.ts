import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GENERATED_KEY_FILE, loadOrCreateGeneratedKey } from './settings-encryption';

describe(loadOrCreateGeneratedKey.name, () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'settings-key-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('generates a random 32-byte key once, readable only by the owner, and reuses it', () => {
    const first = loadOrCreateGeneratedKey(dir);
    expect(first).toHaveLength(32);
    expect(statSync(join(dir, GENERATED_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(loadOrCreateGeneratedKey(dir).equals(first)).toBe(true);
    const other = mkdtempSync(join(tmpdir(), 'settings-key-'));
    try {
      expect(loadOrCreateGeneratedKey(other).equals(first)).toBe(false);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
