import { LanguageDetector } from './language-detector';

describe(LanguageDetector.name, () => {
  const sut = LanguageDetector.instance();

  it.each([
    ['src/index.ts', 'TypeScript'],
    ['lib/a.d.ts', 'TypeScript'],
    ['main.c', 'C'],
    ['include/x.h', 'C'],
    ['app.py', 'Python'],
    ['Makefile', 'Makefile'],
    ['web/index.html', 'HTML'],
    ['style.SCSS', 'SCSS'],
  ])('detects %s as %s', (path, language) => {
    expect(sut.languageOf(path)).toBe(language);
  });

  it.each(['README.md', 'package.json', 'data.yml', 'node_modules/x/index.js', 'vendor/lib.rb', 'docs/guide.js', 'dist/app.min.js', 'image.png', 'LICENSE'])(
    'leaves out %s (prose, data, vendored, documentation, unknown)',
    (path) => {
      expect(sut.languageOf(path)).toBeNull();
    },
  );

  it('gives percentages by bytes, rounded to 2 decimals, largest first', () => {
    const result = sut.percentages([
      { path: 'a.ts', size: 2000 },
      { path: 'b.js', size: 1000 },
      { path: 'c.css', size: 1 },
      { path: 'README.md', size: 50000 },
      { path: 'empty.go', size: 0 },
    ]);
    expect(result).toEqual({ TypeScript: 66.64, JavaScript: 33.32, CSS: 0.03 });
    expect(Object.keys(result)).toEqual(['TypeScript', 'JavaScript', 'CSS']);
  });

  it('is empty when nothing counts', () => {
    expect(sut.percentages([{ path: 'README.md', size: 10 }])).toEqual({});
  });
});
