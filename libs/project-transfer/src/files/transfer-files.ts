import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';

/** GitLab keeps an export archive 24 hours. */
export const EXPORT_TTL_MS = 24 * 60 * 60 * 1000;
/** Largest decompressed archive an import reads unless configured (GitLab's `max_decompressed_archive_size`, 25 GiB). */
export const DEFAULT_MAX_DECOMPRESSED_BYTES = 25 * 1024 * 1024 * 1024;
/** Most tar entries an import reads. */
export const MAX_ARCHIVE_ENTRIES = 10_000;

/**
 * Where export archives and import uploads live on disk: `DATA_DIR/project-transfer/{exports,imports,work}`.
 * Keys are relative paths with a random part, so that several test gateways sharing DATA_DIR
 * (and projects of the same id in different databases) never meet.
 */
@Injectable()
export class TransferFiles {
  readonly root: string;

  constructor(config: AppConfig) {
    this.root = join(config.dataDir, 'project-transfer');
  }

  /** The absolute path of a stored key; refuses keys that leave the root. */
  pathOf(key: string): string {
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + sep)) throw new Error(`transfer file key outside its directory: ${key}`);
    return path;
  }

  /** A new empty directory under `kind` and its key. */
  async newDirectory(kind: 'exports' | 'imports' | 'work', label: string): Promise<{ key: string; path: string }> {
    const key = join(kind, `${label}-${Date.now()}-${randomBytes(6).toString('hex')}`);
    const path = this.pathOf(key);
    await mkdir(path, { recursive: true, mode: 0o700 });
    return { key, path };
  }

  /** Removes a stored key (a file or a directory); a missing one is fine. */
  async remove(key: string | null): Promise<void> {
    if (!key) return;
    await rm(this.pathOf(key), { recursive: true, force: true });
  }
}
