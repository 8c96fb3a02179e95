import { extractCoverage } from './coverage';

describe('extractCoverage', () => {
  it('takes the first number of the last match on the last matching line', () => {
    const log = 'Coverage: 10.0%\nnoise\n\x1b[32mCoverage: 87.50%\x1b[0m of lines\nend';
    expect(extractCoverage('/Coverage: \\d+\\.\\d+%/', log)).toBe(87.5);
    expect(extractCoverage('/Lines:\\s+(\\d+)/', 'Lines: 3 and Lines: 42')).toBe(42);
  });

  it('gives null without a match, for a pattern that does not compile, and for a catastrophic pattern', () => {
    expect(extractCoverage('/Coverage: (\\d+)%/', 'nothing here')).toBeNull();
    expect(extractCoverage('/(/', 'Coverage: 1%')).toBeNull();
    const started = Date.now();
    expect(extractCoverage('/^(a+)+$/', 'a'.repeat(40) + '!')).toBeNull();
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
