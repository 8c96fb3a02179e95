import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import * as tar from 'tar-stream';
import { importEntryLimits } from './import-entry-limits';
import { ArchiveError, extractArchive, isRootEntry, lineLengthLimit, packDirectory } from './tar-archive';

const LIMITS = { maxBytes: 64 * 1024 * 1024, maxEntries: 100 };

/** A gzipped tar of `entries` made with tar-stream (`size` alone: a header announcing that size, then that many bytes of 'a'). */
async function archive(entries: Array<{ name: string; content?: string; type?: 'file' | 'directory' | 'symlink'; size?: number }>): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (chunk) => void chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve) => pack.on('end', () => resolve()));
  for (const entry of entries) {
    if (entry.type === 'directory') pack.entry({ name: entry.name, type: 'directory' });
    else if (entry.type === 'symlink') pack.entry({ name: entry.name, type: 'symlink', linkname: '../../etc/passwd' });
    else if (entry.size !== undefined) pack.entry({ name: entry.name, size: entry.size }).end(Buffer.alloc(entry.size, 0x61));
    else pack.entry({ name: entry.name }, entry.content ?? '');
  }
  pack.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}

describe('project archive extraction', () => {
  let root: string;
  let n = 0;
  const target = () => {
    const dir = join(root, `out-${++n}`);
    mkdirSync(dir);
    return dir;
  };
  beforeAll(() => (root = mkdtempSync(join(tmpdir(), 'tar-archive-spec-'))));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('extracts an archive made by the tar binary from a directory (entries under ./, as GitLab makes them)', async () => {
    const source = join(root, 'source');
    mkdirSync(join(source, 'tree', 'project'), { recursive: true });
    writeFileSync(join(source, 'VERSION'), '0.2.4');
    writeFileSync(join(source, 'tree', 'project.json'), '{"description":"x"}');
    writeFileSync(join(source, 'tree', 'project', 'issues.ndjson'), '{"iid":1}\n');
    const file = join(root, 'gitlab.tar.gz');
    execFileSync('tar', ['-czf', file, '-C', source, '.']);
    const listed = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).split('\n');
    expect(listed).toEqual(expect.arrayContaining(['./', './VERSION', './tree/project/issues.ndjson']));

    const dir = target();
    const names = await extractArchive(createReadStream(file), dir, { ...LIMITS, entryLimits: importEntryLimits });
    expect(names.sort()).toEqual(['VERSION', 'tree/project.json', 'tree/project/issues.ndjson']);
    expect(readFileSync(join(dir, 'tree', 'project', 'issues.ndjson'), 'utf8')).toBe('{"iid":1}\n');
  });

  it('still refuses ./.. , absolute paths and links after a ./ prefix', async () => {
    const cases: Array<[Parameters<typeof archive>[0], RegExp]> = [
      [
        [
          { name: './', type: 'directory' },
          { name: './../evil', content: 'x' },
        ],
        /outside the import directory/,
      ],
      [[{ name: './tree/../../evil', content: 'x' }], /outside the import directory/],
      [[{ name: '/etc/evil', content: 'x' }], /outside the import directory/],
      [[{ name: './tree/project/issues.ndjson', type: 'symlink' }], /not a regular file/],
      [[{ name: '.', content: 'a file named .' }], /outside the import directory/],
    ];
    for (const [entries, message] of cases) {
      await expect(extractArchive(Readable.from(await archive(entries)), target(), LIMITS)).rejects.toThrow(message);
    }
    expect(existsSync(join(root, 'evil'))).toBe(false);
    expect(['.', './', './/', '././']).toEqual(['.', './', './/', '././'].filter(isRootEntry));
    expect(['..', './..', '.x', '', 'a/.'].filter(isRootEntry)).toEqual([]);
  });

  it('refuses an entry whose announced size passes the decompressed limit before writing any of it', async () => {
    const dir = target();
    const file = await archive([
      { name: 'VERSION', content: '0.2.4' },
      { name: 'tree/project/big.ndjson', size: 2 * 1024 * 1024 },
    ]);
    await expect(extractArchive(Readable.from(file), dir, { maxBytes: 1024 * 1024, maxEntries: 10 })).rejects.toThrow(
      new ArchiveError('The archive is larger than 1048576 bytes once decompressed'),
    );
    expect(existsSync(join(dir, 'tree', 'project', 'big.ndjson'))).toBe(false);
  });

  it("stops an NDJSON file at its first line over the limit, and a project.json over it from its header, in GitLab's words", async () => {
    // 100 MiB of 'a' without a newline: ~100 KB of gzip.
    const entryBytes = 100 * 1024 * 1024;
    const pack = tar.pack();
    const gz = pack.pipe(createGzip());
    const entry = pack.entry({ name: './tree/project/issues.ndjson', size: entryBytes }) as unknown as Writable;
    const block = Buffer.alloc(1024 * 1024, 0x61);
    void (async () => {
      for (let i = 0; i < 100; i++) if (!entry.write(block)) await new Promise((resolve) => entry.once('drain', resolve));
      entry.end();
      pack.finalize();
    })();
    const dir = target();
    await expect(extractArchive(gz, dir, { maxBytes: 1024 ** 3, maxEntries: 10, entryLimits: importEntryLimits })).rejects.toThrow(
      new ArchiveError('JSON exceeds 64 MB limit in issues.ndjson'),
    );
    // Written up to the limit at most (and one chunk), never the whole line.
    const written = join(dir, 'tree', 'project', 'issues.ndjson');
    expect(existsSync(written) ? statSync(written).size : 0).toBeLessThanOrEqual(64 * 1024 * 1024 + 1024 * 1024);

    const big = await archive([{ name: 'tree/project.json', size: 64 * 1024 * 1024 + 1 }]);
    const jsonDir = target();
    await expect(extractArchive(Readable.from(big), jsonDir, { ...LIMITS, maxBytes: 1024 ** 3, entryLimits: importEntryLimits })).rejects.toThrow(
      'JSON exceeds 64 MB limit in project.json',
    );
    expect(existsSync(join(jsonDir, 'tree', 'project.json'))).toBe(false);
  });

  it('measures lines across chunks', async () => {
    const run = async (chunks: string[], max: number) => {
      const out: Buffer[] = [];
      const guard = lineLengthLimit(max, 'too long');
      guard.on('data', (c: Buffer) => out.push(c));
      const done = new Promise<void>((resolve, reject) => guard.on('end', resolve).on('error', reject));
      for (const chunk of chunks) guard.write(chunk);
      guard.end();
      await done;
      return Buffer.concat(out).toString();
    };
    await expect(run(['abc\nab', 'c\nabc'], 3)).resolves.toBe('abc\nabc\nabc');
    await expect(run(['ab', 'cd\n'], 3)).rejects.toThrow('too long');
    await expect(run(['ab\nabcd\n'], 3)).rejects.toThrow('too long');
  });

  it('fails an export whose output fails, without an unhandled error', async () => {
    const dir = target();
    writeFileSync(join(dir, 'a'), randomBytes(256 * 1024));
    writeFileSync(join(dir, 'b'), randomBytes(256 * 1024));
    let seen = 0;
    const failing = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        seen += chunk.length;
        callback(seen > 1024 ? Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }) : null);
      },
    });
    await expect(packDirectory(dir, ['a', 'b'], failing)).rejects.toThrow(/ENOSPC/);
  });
});
