import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { PassThrough, Readable, Transform, Writable } from 'node:stream';
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
  // The pipeline may fail (disk full) while an entry is being written: its rejection is handled
  // at once (never an unhandled rejection), and an entry waiting on a dead pack stops waiting.
  let failed: Error | null = null;
  const stopped = done.then(
    () => new Error('the archive ended before its last entry'),
    (error: Error) => (failed = error),
  );
  try {
    for (const name of files) {
      if (failed) break;
      const { size, mtime } = await stat(join(dir, name));
      await new Promise<void>((resolve, reject) => {
        const entry = pack.entry({ name, size, mtime, mode: 0o644, type: 'file' }, (error) => (error ? reject(error) : resolve()));
        // The entry's own failure reaches the callback above; an 'error' event without a listener would crash the process.
        entry.on('error', () => undefined);
        const source = createReadStream(join(dir, name));
        source.on('error', (error) => {
          entry.destroy(error);
          reject(error);
        });
        source.pipe(entry);
        void stopped.then(reject);
      });
    }
    if (!failed) pack.finalize();
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
  /**
   * Limits of particular entries (by their normalised name), checked while extracting: a
   * largest size (checked on the tar header first, so nothing of it is written) and a longest
   * line (a file read line by line). `error` is the import's `import_error` when one is passed.
   */
  entryLimits?: (name: string) => EntryLimit | null;
}

export interface EntryLimit {
  maxBytes?: number;
  maxLineBytes?: number;
  error: string;
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

/** An entry naming the extraction directory itself: `.`, `./`, `.//.`. */
export function isRootEntry(name: string): boolean {
  return name.startsWith('.') && name.split('/').every((part) => part === '' || part === '.');
}

const decompressedTooLarge = (max: number): string => `The archive is larger than ${max} bytes once decompressed`;

/**
 * Passes bytes through while no line (bytes between two `\n`) is longer than `max`; fails with
 * `message` as soon as one is, so that a file without newlines is never written whole.
 */
export function lineLengthLimit(max: number, message: string): Transform {
  let current = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      let start = 0;
      for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
        if (current + newline - start > max) return callback(new ArchiveError(message));
        current = 0;
        start = newline + 1;
      }
      current += chunk.length - start;
      if (current > max) callback(new ArchiveError(message));
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
    // `tar -czf x.tar.gz -C dir .` (as GitLab writes its archives) starts with the directory itself, `./`.
    if (header.type === 'directory' && isRootEntry(header.name)) {
      stream.resume();
      return next();
    }
    const target = safeEntryPath(dir, header.name);
    if (target === null) return fail(`The archive has an entry outside the import directory: ${JSON.stringify(header.name.slice(0, 200))}`);
    if (header.type === 'directory') {
      stream.resume();
      mkdir(target, { recursive: true }).then(
        () => next(),
        (error: Error) => extract.destroy(error),
      );
      return;
    }
    if (header.type !== 'file' && header.type !== 'contiguous-file')
      return fail(`The archive has an entry that is not a regular file: ${JSON.stringify(header.name.slice(0, 200))} (${header.type})`);
    const name = relative(dir, target).split(sep).join('/');
    names.push(name);
    // The header announces the size: a file past a limit is refused before any of it is written.
    if (total + (header.size ?? 0) > limits.maxBytes) return fail(decompressedTooLarge(limits.maxBytes));
    const limit = limits.entryLimits?.(name) ?? null;
    if (limit?.maxBytes !== undefined && (header.size ?? 0) > limit.maxBytes) return fail(limit.error);
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        total += chunk.length;
        if (total > limits.maxBytes) callback(new ArchiveError(decompressedTooLarge(limits.maxBytes)));
        else callback(null, chunk);
      },
    });
    const lines = limit?.maxLineBytes !== undefined ? lineLengthLimit(limit.maxLineBytes, limit.error) : new PassThrough();
    mkdir(dirname(target), { recursive: true })
      .then(() => pipeline(stream, counter, lines, createWriteStream(target, { flags: 'wx', mode: 0o600 })))
      .then(
        () => next(),
        (error: Error) => extract.destroy(error instanceof ArchiveError ? error : new ArchiveError(`The archive could not be extracted: ${error.message}`)),
      );
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
