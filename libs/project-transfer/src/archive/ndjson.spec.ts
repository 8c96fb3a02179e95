import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { countLines, humanSize, jsonTooLargeMessage, LineTooLongError, MAX_LINE_BYTES, readNdjson, splitLines } from './ndjson';
import { ArchiveError } from './tar-archive';

async function* chunks(...parts: string[]): AsyncGenerator<Buffer> {
  for (const part of parts) yield Buffer.from(part);
}

const collect = async (source: AsyncIterable<Buffer>, max: number) => {
  const lines: string[] = [];
  for await (const line of splitLines(source, max)) lines.push(line.toString());
  return lines;
};

describe('NDJSON reading', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'ndjson-spec-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('splits lines across chunks, keeps empty lines and a last line without newline', async () => {
    await expect(collect(chunks('ab', 'c\nd', 'e\n\nf\r\n', 'g'), 10)).resolves.toEqual(['abc', 'de', '', 'f\r', 'g']);
    await expect(collect(chunks('a\n', ''), 10)).resolves.toEqual(['a']);
  });

  it('takes a line of exactly the limit and refuses one byte more, with its line number', async () => {
    await expect(collect(chunks('12345\n', '123', '45'), 5)).resolves.toEqual(['12345', '12345']);
    await expect(collect(chunks('ok\n', '123', '456\n'), 5)).rejects.toEqual(expect.objectContaining({ name: 'LineTooLongError', lineNumber: 1, limit: 5 }));
    await expect(collect(chunks('ok\n123456'), 5)).rejects.toBeInstanceOf(LineTooLongError);
  });

  it('fails as soon as a line passes the limit: an endless line without newline is never read whole', async () => {
    let read = 0;
    async function* endless(): AsyncGenerator<Buffer> {
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      for (;;) {
        read += chunk.length;
        yield chunk;
      }
    }
    await expect(collect(endless(), 1024 * 1024)).rejects.toBeInstanceOf(LineTooLongError);
    expect(read).toBeLessThanOrEqual(1024 * 1024 + 64 * 1024);
  });

  it('reads records with their line numbers, blank lines skipped, bad lines reported', async () => {
    const file = join(dir, 'labels.ndjson');
    writeFileSync(file, '{"title":"a"}\n\n  \r\n[1]\n{"title":"b"}\r\n{not json');
    const lines = [];
    for await (const line of readNdjson(file)) lines.push(line);
    expect(lines.map((l) => [l.lineNumber, l.value.ok ? l.value.record : (l.value as { error: Error }).error.name])).toEqual([
      [0, { title: 'a' }],
      [3, 'SyntaxError'],
      [4, { title: 'b' }],
      [5, 'SyntaxError'],
    ]);
  });

  it("fails a file with a line over the limit in GitLab's words, and counts lines of any length", async () => {
    const file = join(dir, 'issues.ndjson');
    const out = createWriteStream(file);
    await pipeline(
      (async function* () {
        yield '{"iid":1}\n';
        for (let i = 0; i < 64; i++) yield 'a'.repeat(64 * 1024);
        yield '\n{"iid":2}\n';
      })(),
      out,
    );
    const seen: number[] = [];
    const read = async () => {
      for await (const line of readNdjson(file, 1024 * 1024)) seen.push(line.lineNumber);
    };
    await expect(read()).rejects.toThrow(new ArchiveError('JSON exceeds 1 MB limit in issues.ndjson'));
    expect(seen).toEqual([0]);
    await expect(countLines(file)).resolves.toBe(3);
    writeFileSync(file, ' \n{"a":1}\r\n\n x');
    await expect(countLines(file)).resolves.toBe(2);
  });

  it('writes sizes as Rails does, and the default limit is 64 MB', () => {
    expect(MAX_LINE_BYTES).toBe(64 * 1024 * 1024);
    expect(jsonTooLargeMessage('/work/x/tree/project/merge_requests.ndjson', MAX_LINE_BYTES)).toBe('JSON exceeds 64 MB limit in merge_requests.ndjson');
    expect([1, 100, 1024, 1536, 50 * 1024 * 1024, 3 * 1024 ** 3].map(humanSize)).toEqual(['1 Byte', '100 Bytes', '1 KB', '1.5 KB', '50 MB', '3 GB']);
  });
});
