import { DomainError } from '@app/api';
import { checkSnippetSize, humanSize } from './snippet-files';

describe(humanSize.name, () => {
  it.each([
    [1, '1 Byte'],
    [10, '10 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [10_000, '9.77 KB'],
    [1_000_000, '977 KB'],
    [1_048_575, '1020 KB'],
    [52_428_800, '50 MB'],
    [3 * 1024 ** 3, '3 GB'],
  ])('%d bytes is %s, as Rails writes it', (bytes, text) => {
    expect(humanSize(bytes)).toBe(text);
  });
});

describe(checkSnippetSize.name, () => {
  it('counts the UTF-8 bytes of every file together', () => {
    expect(() => checkSnippetSize([{ path: 'a', content: 'é'.repeat(5) }], 10)).not.toThrow();
    expect(() =>
      checkSnippetSize(
        [
          { path: 'a', content: 'é'.repeat(5) },
          { path: 'b', content: 'x' },
        ],
        10,
      ),
    ).toThrow(DomainError);
    expect(() => checkSnippetSize([{ path: 'a', content: 'x'.repeat(2048) }], 1024)).toThrow(
      expect.objectContaining({ details: { validation: { content: ['is too long (2 KB). The maximum size is 1 KB.'] } } }),
    );
  });
});
