import { createHash } from 'node:crypto';
import { fingerprintOf, payloadFingerprintOf } from './fingerprint';

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

describe(fingerprintOf.name, () => {
  it('hashes a string as its canonical JSON (quoted) with SHA-1', () => {
    expect(fingerprintOf('abc')).toBe(sha1('"abc"'));
    expect(fingerprintOf('abc')).toMatch(/^[0-9a-f]{40}$/);
  });

  it('hashes a number as its JSON number, distinct from the same digits as a string', () => {
    expect(fingerprintOf(42)).toBe(sha1('42'));
    expect(fingerprintOf(42)).not.toBe(fingerprintOf('42'));
    expect(fingerprintOf(4.5)).toBe(sha1('4.5'));
  });

  it('hashes an array by its canonical encoding: ["a","bc"], ["ab","c"] and "abc" all differ', () => {
    expect(fingerprintOf(['a', 'bc'])).toBe(sha1('["a","bc"]'));
    const all = [fingerprintOf(['a', 'bc']), fingerprintOf(['ab', 'c']), fingerprintOf('abc'), fingerprintOf(['abc'])];
    expect(new Set(all).size).toBe(4);
  });

  it('is stable: the same value always gives the same fingerprint, objects regardless of key order', () => {
    expect(fingerprintOf(['x', 1, { b: 2, a: 1 }])).toBe(fingerprintOf(['x', 1, { a: 1, b: 2 }]));
  });

  it('gives no fingerprint for null, booleans, blank strings and empty arrays or objects', () => {
    for (const value of [undefined, null, true, false, '', '   ', [], {}, Number.POSITIVE_INFINITY]) expect(fingerprintOf(value)).toBeNull();
  });
});

describe(payloadFingerprintOf.name, () => {
  it('ignores start_time, end_time and hosts, and key order', () => {
    const a = payloadFingerprintOf({ title: 'Disk full', start_time: '2026-01-01T00:00:00Z', hosts: ['a'], labels: { x: 1, y: 2 } });
    const b = payloadFingerprintOf({ labels: { y: 2, x: 1 }, hosts: 'b', end_time: '2026-01-02T00:00:00Z', title: 'Disk full' });
    expect(a).toBe(b);
  });

  it('differs when any other attribute differs', () => {
    expect(payloadFingerprintOf({ title: 'Disk full', service: 'db' })).not.toBe(payloadFingerprintOf({ title: 'Disk full', service: 'web' }));
    expect(payloadFingerprintOf({ title: 'Disk full' })).not.toBe(payloadFingerprintOf({ title: 'Disk full', severity: 'low' }));
  });
});
