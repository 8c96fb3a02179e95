import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import * as tar from 'tar-stream';

/** Why an archive is refused; the message becomes the import's `import_error`. */
export class ArchiveError extends Error {
  override name = 'ArchiveError';
}

/**
 * Writes `files` (paths relative to `dir`, in that order) as a gzipped tar to `output`, one file
 * at a time from disk: memory stays bounded whatever the sizes.
 */
export async function packDirectory(dir: string, files: readonly string[], output: Writable): Promise<void> {
  const pack = tar.pack();
  const done = pipeline(pack, createGzip({ level: 6 }), output);
  try {
    for (const name of files) {
      const { size, mtime } = await stat(join(dir, name));
      await new Promise<void>((resolve, reject) => {
        const entry = pack.entry({ name, size, mtime, mode: 0o644, type: 'file' }, (error) => (error ? reject(error) : resolve()));
        createReadStream(join(dir, name)).on('error', reject).pipe(entry);
      });
    }
    pack.finalize();
  } catch (error) {
    pack.destroy(error as Error);
  }
  await done;
}

export interface ExtractLimits {
  /** Largest total of the extracted files (a gzip bomb stops there). */
  maxBytes: number;
  /** Most entries. */
  maxEntries: number;
}

/** Bytes of a stream, failing past `max` (a compressed file bigger than allowed). */
export function byteLimit(max: number, message: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (max > 0 && seen > max) callback(new ArchiveError(message));
      else callback(null, chunk);
    },
  });
}

/** A safe relative entry name, or null: no absolute path, no `..`, no NUL, nothing outside `dir`. */
export function safeEntryPath(dir: string, name: string): string | null {
  if (name.includes('\0') || name.startsWith('/') || name.includes('\\') || /^[A-Za-z]:/.test(name)) return null;
  const parts = name.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.length === 0 || parts.some((part) => part === '..')) return null;
  const target = normalize(join(dir, ...parts));
  return target.startsWith(dir.endsWith(sep) ? dir : dir + sep) ? target : null;
}

/**
 * Extracts a gzipped tar into `dir` (which must exist and be empty), entry by entry, streamed.
 * Refuses anything but plain files and directories (symbolic and hard links, devices), names
 * that would land outside `dir`, more than `maxEntries` entries and more than `maxBytes`
 * extracted bytes; a stream that is not gzip or not tar fails. On failure the caller removes `dir`.
 */
export async function extractArchive(input: Readable, dir: string, limits: ExtractLimits): Promise<string[]> {
  const extract = tar.extract();
  // Errors reach the caller through the pipeline; a late one after it settled is not a crash.
  extract.on('error', () => undefined);
  const names: string[] = [];
  let total = 0;
  extract.on('entry', (header, stream, next) => {
    stream.on('error', () => undefined);
    const fail = (message: string) => {
      stream.resume();
      extract.destroy(new ArchiveError(message));
    };
    if (names.length >= limits.maxEntries) return fail(`The archive has more than ${limits.maxEntries} entries`);
    const target = safeEntryPath(dir, header.name);
    if (target === null) return fail(`The archive has an entry outside the import directory: ${JSON.stringify(header.name.slice(0, 200))}`);
    if (header.type === 'directory') {
      stream.resume();
      mkdir(target, { recursive: true }).then(() => next(), (error: Error) => extract.destroy(error));
      return;
    }
    if (header.type !== 'file' && header.type !== 'contiguous-file') return fail(`The archive has an entry that is not a regular file: ${JSON.stringify(header.name.slice(0, 200))} (${header.type})`);
    names.push(header.name.replace(/^(\.\/)+/, ''));
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        total += chunk.length;
        if (total > limits.maxBytes) callback(new ArchiveError(`The archive is larger than ${limits.maxBytes} bytes once decompressed`));
        else callback(null, chunk);
      },
    });
    mkdir(dirname(target), { recursive: true })
      .then(() => pipeline(stream, counter, createWriteStream(target, { flags: 'wx', mode: 0o600 })))
      .then(() => next(), (error: Error) => extract.destroy(error instanceof ArchiveError ? error : new ArchiveError(`The archive could not be extracted: ${error.message}`)));
  });
  try {
    await pipeline(input, createGunzip(), extract);
  } catch (error) {
    if (error instanceof ArchiveError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR') throw new ArchiveError('The file is not a gzip archive');
    throw new ArchiveError(`The archive could not be read: ${(error as Error).message}`);
  }
  return names;
}
