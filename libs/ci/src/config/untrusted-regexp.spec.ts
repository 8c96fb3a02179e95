import { globToUntrustedRegexp, UntrustedRegexp, UntrustedRegexpError } from './untrusted-regexp';

describe(UntrustedRegexp.name, () => {
  it("reads GitLab's /pattern/flags form and refuses what RE2 cannot run in linear time", () => {
    expect(UntrustedRegexp.fabricate('/^rel-\\d+$/i').test('REL-12')).toBe(true);
    expect(UntrustedRegexp.fabricate('/a.+?/U').source).toBe('(?U)a.+?');
    expect(UntrustedRegexp.matchesSyntax('/a(/')).toBe(true);
    expect(UntrustedRegexp.matchesSyntax('main')).toBe(false);
    expect(UntrustedRegexp.fabricateOrNull('/a(/')).toBeNull();
    expect(UntrustedRegexp.fabricateOrNull('/x/g')).toBeNull();
    expect(() => UntrustedRegexp.compile('(a)\\1')).toThrow(UntrustedRegexpError);
    expect(() => UntrustedRegexp.compile('a(?=b)')).toThrow(UntrustedRegexpError);
    expect(() => UntrustedRegexp.compile('(?<=a)b')).toThrow(UntrustedRegexpError);
  });

  it.each<[string, string]>([
    ['^(a+)+$', 'a'.repeat(200_000) + '!'],
    ['(x+x+)+y', 'x'.repeat(200_000)],
    ['(.*a){20}', 'b'.repeat(200_000)],
    ['(a|aa)+$', 'a'.repeat(200_000) + 'b'],
  ])('completes /%s/ on a long input (linear time)', (pattern, text) => {
    const regexp = UntrustedRegexp.compile(pattern);
    expect(regexp.test(text)).toBe(false);
    expect(regexp.matches(text)).toEqual([]);
  });

  it('lists every match, empty ones included, without looping', () => {
    expect(UntrustedRegexp.compile('\\d+').matches('a1 b22 c333')).toEqual(['1', '22', '333']);
    expect(UntrustedRegexp.compile('x*').matches('ab')).toEqual(['', '', '']);
  });
});

describe(globToUntrustedRegexp.name, () => {
  it.each<[string, string, boolean]>([
    ['src/**/*', 'src/a.ts', true],
    ['src/**/*', 'src/deep/er/a.ts', true],
    ['src/**/*', 'docs/a.md', false],
    ['*.md', 'README.md', true],
    ['*.md', 'docs/README.md', false],
    ['**/*.md', 'docs/README.md', true],
    ['**/*.md', 'README.md', true],
    ['.gitlab/*', '.gitlab/ci.yml', true],
    ['*', '.hidden', true],
    ['file?.txt', 'file1.txt', true],
    ['file?.txt', 'file/.txt', false],
    ['[ab].txt', 'b.txt', true],
    ['[!ab].txt', 'c.txt', true],
    ['[!ab].txt', 'a.txt', false],
    ['{src,lib}/**/*.{ts,js}', 'lib/x/y.js', true],
    ['{src,lib}/**/*.{ts,js}', 'app/x.ts', false],
    ['a+b(c).txt', 'a+b(c).txt', true],
    ['package.json', 'package.json', true],
    ['package.json', 'packageXjson', false],
  ])('%s against %s is %s', (glob, path, expected) => {
    expect(globToUntrustedRegexp(glob).test(path)).toBe(expected);
  });

  it('completes a glob that backtracks for minutes in a JavaScript regexp', () => {
    expect(globToUntrustedRegexp('*a*a*a*a*a*a*a*a*a*a*a*a*b').test('a'.repeat(100_000))).toBe(false);
    expect(globToUntrustedRegexp('**/**/**/**/**/**/**/**/x').test('a/'.repeat(50_000) + 'y')).toBe(false);
  });
});
