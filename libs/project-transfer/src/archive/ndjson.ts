import { createReadStream, createWriteStream, WriteStream } from 'node:fs';
import { once } from 'node:events';
import { basename } from 'node:path';
import { ArchiveError } from './tar-archive';

/** Writes NDJSON lines to a file with backpressure: memory holds at most the stream's buffer. */
export class NdjsonWriter {
  private readonly stream: WriteStream;
  count = 0;

  constructor(path: string) {
    this.stream = createWriteStream(path, { flags: 'wx', mode: 0o600 });
    // An error (disk full) reaches the caller through `write`/`close`; never an unhandled 'error' event.
    this.stream.on('error', () => undefined);
  }

  async write(record: unknown): Promise<void> {
    this.count += 1;
    if (this.stream.errored) throw this.stream.errored;
    if (!this.stream.write(`${JSON.stringify(record)}\n`)) await drained(this.stream);
  }

  async close(): Promise<void> {
    if (!this.stream.closed) {
      this.stream.end();
      await once(this.stream, 'close');
    }
    if (this.stream.errored) throw this.stream.errored;
  }
}

/** Resolves on 'drain', rejects when the stream fails or closes first (never waits forever). */
function drained(stream: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error | null) => {
      stream.off('drain', onDrain).off('error', done).off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(stream.errored ?? new Error('the NDJSON file was closed'));
    stream.on('drain', onDrain).on('error', done).on('close', onClose);
  });
}

/**
 * Longest NDJSON line (and `tree/project.json`) read, in bytes: 64 MiB (GitLab's own limit is
 * `MAX_JSON_DOCUMENT_SIZE`, 50 MB; its relations can be large: an issue with all its notes).
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Bytes as Rails' `number_to_human_size` writes them (`64 MB`, `1.5 KB`, `100 Bytes`), for GitLab's wording. */
export function humanSize(bytes: number): string {
  const units = ['Bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${bytes} ${bytes === 1 ? 'Byte' : 'Bytes'}`;
  return `${Number(value.toPrecision(3))} ${units[unit]}`;
}

/** GitLab's import error for a JSON document over the limit (`Gitlab::ImportExport::Json::NdjsonReader`). */
export const jsonTooLargeMessage = (file: string, limit: number): string => `JSON exceeds ${humanSize(limit)} limit in ${basename(file)}`;

/** A line longer than the limit; `lineNumber` from 0. */
export class LineTooLongError extends Error {
  override name = 'LineTooLongError';

  constructor(
    readonly lineNumber: number,
    readonly limit: number,
  ) {
    super(`line ${lineNumber + 1} is longer than ${limit} bytes`);
  }
}

/**
 * The lines of a stream of bytes, without their `\n`, never holding more than `maxLineBytes` of
 * one line: a longer line fails with `LineTooLongError` as soon as its bytes pass the limit,
 * before it is assembled (so a 2 GiB file without a newline costs `maxLineBytes` of memory,
 * not a crash). Each line is a Buffer (a view of the chunk when it lies in one).
 */
export async function* splitLines(chunks: AsyncIterable<Buffer>, maxLineBytes: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNumber = 0;
  for await (const chunk of chunks) {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline === -1) break;
      const tail = chunk.subarray(start, newline);
      if (pendingBytes + tail.length > maxLineBytes) throw new LineTooLongError(lineNumber, maxLineBytes);
      const line = pending.length === 0 ? tail : Buffer.concat([...pending, tail], pendingBytes + tail.length);
      pending = [];
      pendingBytes = 0;
      start = newline + 1;
      lineNumber += 1;
      yield line;
    }
    if (start < chunk.length) {
      pendingBytes += chunk.length - start;
      if (pendingBytes > maxLineBytes) throw new LineTooLongError(lineNumber, maxLineBytes);
      pending.push(chunk.subarray(start));
    }
  }
  if (pending.length > 0) yield Buffer.concat(pending, pendingBytes);
}

export interface NdjsonLine {
  lineNumber: number;
  /** The parsed record, or the reason it did not parse. */
  value: { ok: true; record: Record<string, unknown> } | { ok: false; error: Error };
}

/** Whether `bytes[start, end)` holds only spaces, tabs and carriage returns. */
function isBlank(bytes: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const byte = bytes[i];
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  }
  return true;
}

function parseRecord(bytes: Buffer): NdjsonLine['value'] {
  try {
    const record = JSON.parse(bytes.toString('utf8')) as unknown;
    if (typeof record !== 'object' || record === null || Array.isArray(record)) throw new SyntaxError('a line must hold a JSON object');
    return { ok: true, record: record as Record<string, unknown> };
  } catch (error) {
    return { ok: false, error: error as Error };
  }
}

/**
 * The lines of an NDJSON file, one at a time (line numbers from 0, as GitLab's `failed_relations`).
 * A line longer than `maxLineBytes` fails the whole read with an `ArchiveError` in GitLab's
 * words (`JSON exceeds 64 MB limit in issues.ndjson`); the file stream is closed whenever the
 * reader stops.
 */
export async function* readNdjson(path: string, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<NdjsonLine> {
  let lineNumber = -1;
  try {
    for await (const bytes of splitLines(createReadStream(path, { highWaterMark: 1024 * 1024 }), maxLineBytes)) {
      lineNumber += 1;
      if (isBlank(bytes, 0, bytes.length)) continue;
      yield { lineNumber, value: parseRecord(bytes) };
    }
  } catch (error) {
    if (error instanceof LineTooLongError) throw new ArchiveError(jsonTooLargeMessage(path, maxLineBytes));
    throw error;
  }
}

/** Non-blank lines of a file, counted on its bytes (no line is assembled, whatever its length). */
export async function countLines(path: string): Promise<number> {
  let lines = 0;
  // Whether the line under way has a byte other than blanks.
  let content = false;
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      if (!content && !isBlank(chunk, start, end)) content = true;
      if (newline === -1) break;
      if (content) lines += 1;
      content = false;
      start = newline + 1;
    }
  }
  return content ? lines + 1 : lines;
}
