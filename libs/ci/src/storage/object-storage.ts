import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where traces and artifacts live: an object store addressed by keys (`traces/12/345.log`).
 * The use cases only know this interface, so an S3-compatible implementation can replace the
 * local directory without touching them.
 */
export abstract class ObjectStorage {
  /**
   * Writes the object from a stream (replacing it); resolves with its size in bytes. Rejects when
   * the stream fails (an `error` at any time from the call on is handled) and then leaves no object.
   */
  abstract put(key: string, body: Readable, options?: { maxBytes?: number }): Promise<number>;
  /** Appends bytes at `offset`, which must be the object's current size (traces); returns the new size. */
  abstract append(key: string, offset: number, body: Buffer): Promise<number>;
  /** A stream of the object (from byte `start`, `length` bytes when given), or null when it does not exist. `size` is what the stream gives. */
  abstract get(key: string, options?: { start?: number; length?: number }): Promise<{ stream: Readable; size: number } | null>;
  abstract size(key: string): Promise<number | null>;
  abstract delete(key: string): Promise<void>;
}

/** Thrown when a streamed object grows past `maxBytes`. */
export class ObjectTooLargeError extends Error {}

/** The local-directory implementation: `DATA_DIR/ci/<key>`. */
@Injectable()
export class LocalObjectStorage extends ObjectStorage {
  private readonly root: string;

  constructor(config: AppConfig) {
    super();
    this.root = join(config.dataDir, 'ci');
  }

  private pathOf(key: string): string {
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + sep) || key.includes('\0')) throw new Error(`Invalid object key: ${key}`);
    return path;
  }

  async put(key: string, body: Readable, options: { maxBytes?: number } = {}): Promise<number> {
    // The body can fail at any moment (an upload cut short), also while the directory is made and
    // before the pipeline below listens: its error is held from now on, never left unhandled.
    let failed: Error | undefined;
    body.on('error', (error: Error) => {
      failed ??= error;
    });
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    if (failed || body.destroyed) throw failed ?? new Error('the stream closed before it was stored');
    const temporary = `${path}.${process.pid}.${Date.now()}.${randomBytes(4).toString('hex')}.part`;
    const file = createWriteStream(temporary);
    let size = 0;
    try {
      await pipeline(
        body,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            size += chunk.length;
            if (options.maxBytes !== undefined && size > options.maxBytes) throw new ObjectTooLargeError(`larger than ${options.maxBytes} bytes`);
            yield chunk;
          }
        },
        file,
      );
      await rename(temporary, path);
      return size;
    } catch (error) {
      // The partial object goes: once the file is closed (it may still be opening when the body
      // fails at once), so that no half-written file is left behind.
      if (!file.closed) await new Promise<void>((resolve) => file.once('close', () => resolve()).destroy());
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async append(key: string, offset: number, body: Buffer): Promise<number> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const handle = await open(path, 'a+');
    try {
      const { size } = await handle.stat();
      // Several gateways may write one trace: the database decides the offset, the file follows it.
      if (size !== offset) await handle.truncate(offset);
      await handle.write(body, 0, body.length, offset);
      return offset + body.length;
    } finally {
      await handle.close();
    }
  }

  async get(key: string, options: { start?: number; length?: number } = {}): Promise<{ stream: Readable; size: number } | null> {
    const full = await this.size(key);
    if (full === null) return null;
    const start = Math.max(0, Math.min(full, options.start ?? 0));
    const size = Math.max(0, Math.min(full - start, options.length ?? full));
    if (size === 0) return { stream: Readable.from([]), size };
    return { stream: createReadStream(this.pathOf(key), { start, end: start + size - 1 }), size };
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await stat(this.pathOf(key))).size;
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}

export const traceKey = (projectId: number, jobId: number): string => `traces/${projectId}/${jobId}.log`;
export const artifactKey = (projectId: number, jobId: number, fileType: string, filename: string): string =>
  `artifacts/${projectId}/${jobId}/${fileType}-${filename.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100)}`;
