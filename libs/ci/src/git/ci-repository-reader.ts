import { Injectable } from '@nestjs/common';
import { GitCommit, OBJECT_ID_PATTERN, RepositoryStorage, ZERO_SHA } from '@app/repository';
import { LRUCache } from 'lru-cache';
import { CiConfigTooLargeError, MAX_CONFIG_BYTES } from '../config/ci-config-parser';

/** A ref a pipeline can run for. */
export interface ResolvedRef {
  /** Short name (`main`, `v1.0`). */
  name: string;
  tag: boolean;
  sha: string;
}

const SAFE_PATH = /^(?!.*(?:^|\/)\.\.(?:\/|$))[^\x00-\x1f\x7f:]+$/;
/** Bytes of file texts, file lists and commits kept (their UTF-16 length, a bound of their size in memory). */
const IMMUTABLE_CACHE_BYTES = 32 * 1024 * 1024;

type Cached = { value: string | string[] | GitCommit | null };

/** Shared answers are frozen: a caller that changed one would change it for every later caller. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** What pipeline creation reads from a project's repository: refs, files at a commit, changed paths. */
@Injectable()
export class CiRepositoryReader {
  /**
   * What was read at a commit id (a file, the file list, the commit itself): the same for ever,
   * so kept, and every pipeline of a commit after its first spawns `git` only to resolve its ref.
   */
  private readonly immutable = new LRUCache<string, Cached>({
    maxSize: IMMUTABLE_CACHE_BYTES,
    sizeCalculation: ({ value }) =>
      64 +
      (value === null
        ? 0
        : typeof value === 'string'
          ? value.length
          : Array.isArray(value)
            ? value.reduce((n, path) => n + 16 + path.length, 0)
            : JSON.stringify(value).length),
  });

  constructor(private readonly storage: RepositoryStorage) {}

  /** `read()`'s answer, from the cache when the key names commit ids only. */
  private async atCommit<T extends Cached['value']>(projectId: number, shas: string[], what: string, read: () => Promise<T>): Promise<T> {
    if (!shas.every((sha) => OBJECT_ID_PATTERN.test(sha))) return read();
    const key = `${projectId}\0${shas.join('\0')}\0${what}`;
    const hit = this.immutable.get(key);
    if (hit) return hit.value as T;
    const value = deepFreeze(await read());
    // A commit that is not there (yet) is not remembered as missing.
    if (value !== null || what !== 'commit') this.immutable.set(key, { value });
    return value;
  }

  private async repository(projectId: number) {
    return this.storage.open({ id: projectId, defaultBranch: null });
  }

  /**
   * A branch (preferred, as GitLab) or a tag of that name; null when neither exists. With
   * `mergeRequestRefs` (child pipelines of a merge request pipeline) also a
   * `refs/merge-requests/:iid/head`, kept as its full name.
   */
  async resolveRef(projectId: number, ref: string, mergeRequestRefs = false): Promise<ResolvedRef | null> {
    if (ref.length === 0 || ref.length > 255 || ref.startsWith('-') || /[\x00-\x20\x7f~^:?*[\\]/.test(ref)) return null;
    const name = ref.replace(/^refs\/(heads|tags)\//, '');
    const repository = await this.repository(projectId);
    if (mergeRequestRefs && /^refs\/merge-requests\/\d+\/head$/.test(ref)) {
      const head = await repository.resolveCommit(`${ref}^{commit}`);
      return head ? { name: ref, tag: false, sha: head } : null;
    }
    const explicitTag = ref.startsWith('refs/tags/');
    if (!explicitTag) {
      const branch = await repository.branchHead(name);
      if (branch) return { name, tag: false, sha: branch };
    }
    if (ref.startsWith('refs/heads/')) return null;
    const tag = await repository.resolveCommit(`refs/tags/${name}^{commit}`);
    return tag ? { name, tag: true, sha: tag } : null;
  }

  /**
   * The file's text at the commit; null when it does not exist or is not a file. A file over
   * `MAX_CONFIG_BYTES` is not read: CiConfigTooLargeError, so that the pipeline reports it.
   */
  async readFile(projectId: number, sha: string, path: string): Promise<string | null> {
    if (!SAFE_PATH.test(path)) return null;
    return this.atCommit(projectId, [sha], `file:${path}`, () => this.readFileFromGit(projectId, sha, path));
  }

  private async readFileFromGit(projectId: number, sha: string, path: string): Promise<string | null> {
    const repository = await this.repository(projectId);
    const size = await repository.git(['cat-file', '-s', `${sha}:${path}`], { okExitCodes: [128] });
    if (size.exitCode !== 0) return null;
    if (Number(size.stdout.toString().trim()) > MAX_CONFIG_BYTES) throw new CiConfigTooLargeError(path);
    const type = await repository.objectType(`${sha}:${path}`);
    if (type !== 'blob') return null;
    const blob = await repository.git(['cat-file', 'blob', `${sha}:${path}`], { okExitCodes: [128] });
    return blob.exitCode === 0 ? blob.stdout.toString('utf8') : null;
  }

  /** Every file path of the commit. */
  async files(projectId: number, sha: string): Promise<string[]> {
    return this.atCommit(projectId, [sha], 'files', async () => {
      const repository = await this.repository(projectId);
      const out = await repository.git(['ls-tree', '-r', '-z', '--name-only', sha], { okExitCodes: [128] });
      return out.exitCode === 0 ? out.stdout.toString('utf8').split('\0').filter(Boolean) : [];
    });
  }

  /** Paths changed between two commits; null when there is no `before` (new branch, tag): `changes` then holds. */
  async changedFiles(projectId: number, before: string | null, after: string): Promise<string[] | null> {
    if (!before || before === ZERO_SHA) return null;
    return this.atCommit(projectId, [before, after], 'diff', async () => {
      const repository = await this.repository(projectId);
      const out = await repository.git(['diff', '--name-only', '-z', '--no-renames', before, after], { okExitCodes: [128] });
      return out.exitCode === 0 ? out.stdout.toString('utf8').split('\0').filter(Boolean) : null;
    });
  }

  /** The commits of `head` that `base` lacks (newest first, at most `limit`): a merge request's commits. */
  async commitsSince(projectId: number, head: string, base: string | null, limit: number): Promise<string[]> {
    return (await this.repository(projectId)).revListShas(head, base ? [base] : [], { limit });
  }

  /** The best common ancestor of two commits; null when they have none. */
  async mergeBase(projectId: number, a: string, b: string): Promise<string | null> {
    return (await this.repository(projectId)).mergeBase(a, b);
  }

  /**
   * Points `ref` at `sha` (created or moved), as GitLab keeps `refs/merge-requests/:iid/head`
   * on the merge request's source head, so that a runner fetches it over smart HTTP.
   */
  async keepRef(projectId: number, ref: string, sha: string): Promise<void> {
    const repository = await this.repository(projectId);
    const current = await repository.refTarget(ref);
    if (current === sha) return;
    await repository.updateRef(ref, sha, current ?? ZERO_SHA, 'merge request head');
  }

  async commit(projectId: number, sha: string): Promise<GitCommit | null> {
    return this.atCommit(projectId, [sha], 'commit', async () => (await this.repository(projectId)).commit(sha));
  }
}
