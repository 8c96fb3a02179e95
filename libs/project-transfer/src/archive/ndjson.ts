import { createReadStream, createWriteStream, WriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

/** Writes NDJSON lines to a file with backpressure: memory holds at most the stream's buffer. */
export class NdjsonWriter {
  private readonly stream: WriteStream;
  count = 0;

  constructor(path: string) {
    this.stream = createWriteStream(path, { flags: 'wx', mode: 0o600 });
  }

  async write(record: unknown): Promise<void> {
    this.count += 1;
    if (!this.stream.write(`${JSON.stringify(record)}\n`)) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    this.stream.end();
    await once(this.stream, 'close');
  }
}

/** Longest NDJSON line read (GitLab's relations can be large: an issue with all its notes). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface NdjsonLine {
  lineNumber: number;
  /** The parsed record, or the reason it did not parse. */
  value: { ok: true; record: Record<string, unknown> } | { ok: false; error: Error };
}

/** The lines of an NDJSON file, one at a time (line numbers from 0, as GitLab's `failed_relations`). */
export async function* readNdjson(path: string): AsyncGenerator<NdjsonLine> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let lineNumber = -1;
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    if (line.length > MAX_LINE_BYTES) {
      yield { lineNumber, value: { ok: false, error: new SyntaxError(`line longer than ${MAX_LINE_BYTES} bytes`) } };
      continue;
    }
    try {
      const record = JSON.parse(line) as unknown;
      if (typeof record !== 'object' || record === null || Array.isArray(record)) throw new SyntaxError('a line must hold a JSON object');
      yield { lineNumber, value: { ok: true, record: record as Record<string, unknown> } };
    } catch (error) {
      yield { lineNumber, value: { ok: false, error: error as Error } };
    }
  }
}
