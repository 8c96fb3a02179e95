import busboy from 'busboy';
import { createWriteStream } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ArchiveError, byteLimit } from '../archive/tar-archive';

export interface MultipartImport {
  fields: Record<string, string>;
  overrideParams: Record<string, string>;
  /** Bytes of the `file` part written to `archive.tar.gz` in the directory, or null without one. */
  fileBytes: number | null;
}

export class MultipartError extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
  }
}

/** The `message` of a form that ends before its closing boundary (busboy: `Unexpected end of form` / `of file`). */
export const TRUNCATED = 'multipart body ended before its closing boundary';
const truncated = (error: unknown): boolean => error instanceof Error && /^Unexpected end of (form|file)$/.test(error.message);

/**
 * Reads a `multipart/form-data` import request as it arrives: the `file` part is streamed to
 * `<dir>/archive.tar.gz` (at most `maxBytes`, 0 = unlimited), the other parts are small fields
 * (`override_params[key]` collected apart). Whatever the order of the parts.
 */
export async function readImportMultipart(headers: IncomingHttpHeaders, body: Readable, dir: string, maxBytes: number): Promise<MultipartImport> {
  const fields: Record<string, string> = {};
  const overrideParams: Record<string, string> = {};
  let fileBytes: number | null = null;
  // Closed (or refused by the HTTP parser) before this handler got to it: no event will come again.
  if (body.destroyed) throw new MultipartError(400, 'upload interrupted');
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers, limits: { files: 1, fields: 100, fieldSize: 64 * 1024, parts: 101 } });
  } catch {
    body.resume();
    throw new MultipartError(400, 'file is missing');
  }
  let failure: MultipartError | null = null;
  const writes: Promise<void>[] = [];
  await new Promise<void>((resolve) => {
    // The request failed (closed before its end) or the form is refused: the parser is destroyed
    // too, which fails the file part under way, so that its write stops and closes its file.
    const abandon = (error: MultipartError) => {
      failure ??= error;
      body.unpipe(parser);
      body.resume();
      if (!parser.destroyed) parser.destroy();
      void Promise.allSettled(writes).then(() => resolve());
    };
    parser.on('field', (name, value) => {
      const override = /^override_params\[([a-z_]{1,64})\]$/.exec(name);
      if (override) overrideParams[override[1]] = value;
      else if (name.length <= 64) fields[name] = value;
    });
    parser.on('file', (name, stream) => {
      if (name !== 'file' || fileBytes !== null) {
        // Read and dropped; a part cut short fails this stream: never an unhandled 'error'.
        stream.on('error', () => undefined);
        stream.resume();
        return;
      }
      fileBytes = 0;
      const counter = byteLimit(maxBytes, 'too large');
      counter.on('data', (chunk: Buffer) => (fileBytes! += chunk.length));
      writes.push(
        pipeline(stream, counter, createWriteStream(join(dir, 'archive.tar.gz'), { flags: 'wx', mode: 0o600 })).catch((error: unknown) =>
          abandon(
            error instanceof ArchiveError
              ? new MultipartError(413, '413 Request Entity Too Large')
              : new MultipartError(400, truncated(error) ? TRUNCATED : 'file could not be stored'),
          ),
        ),
      );
    });
    parser.on('error', (error: Error) => abandon(new MultipartError(400, truncated(error) ? TRUNCATED : 'malformed multipart body')));
    parser.on('close', () => void Promise.allSettled(writes).then(() => resolve()));
    body.on('error', () => abandon(new MultipartError(400, 'upload interrupted')));
    // A request closed before its end: 'aborted' comes even where 'error' does not.
    body.on('aborted', () => abandon(new MultipartError(400, 'upload interrupted')));
    body.on('close', () => {
      if (!body.readableEnded) abandon(new MultipartError(400, 'upload interrupted'));
    });
    body.pipe(parser);
  });
  await Promise.allSettled(writes);
  if (failure) throw failure;
  return { fields, overrideParams, fileBytes };
}
