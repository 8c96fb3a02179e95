import { Injectable } from '@nestjs/common';
import { GitCommit, RepositoryStorage, ZERO_SHA } from '@app/repository';

/** A ref a pipeline can run for. */
export interface ResolvedRef {
  /** Short name (`main`, `v1.0`). */
  name: string;
  tag: boolean;
  sha: string;
}

const MAX_CONFIG_FILE_BYTES = 1024 * 1024;
const SAFE_PATH = /^(?!.*(?:^|\/)\.\.(?:\/|$))[^\x00-\x1f\x7f:]+$/;

/** What pipeline creation reads from a project's repository: refs, files at a commit, changed paths. */
@Injectable()
export class CiRepositoryReader {
  constructor(private readonly storage: RepositoryStorage) {}

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
      const branch = await repository.resolveCommit(`refs/heads/${name}^{commit}`);
      if (branch) return { name, tag: false, sha: branch };
    }
    if (ref.startsWith('refs/heads/')) return null;
    const tag = await repository.resolveCommit(`refs/tags/${name}^{commit}`);
    return tag ? { name, tag: true, sha: tag } : null;
  }

  /** The file's text at the commit; null when it does not exist, is not a file or is too big. */
  async readFile(projectId: number, sha: string, path: string): Promise<string | null> {
    if (!SAFE_PATH.test(path)) return null;
    const repository = await this.repository(projectId);
    const size = await repository.git(['cat-file', '-s', `${sha}:${path}`], { okExitCodes: [128] });
    if (size.exitCode !== 0 || Number(size.stdout.toString().trim()) > MAX_CONFIG_FILE_BYTES) return null;
    const type = await repository.objectType(`${sha}:${path}`);
    if (type !== 'blob') return null;
    const blob = await repository.git(['cat-file', 'blob', `${sha}:${path}`], { okExitCodes: [128] });
    return blob.exitCode === 0 ? blob.stdout.toString('utf8') : null;
  }

  /** Every file path of the commit. */
  async files(projectId: number, sha: string): Promise<string[]> {
    const repository = await this.repository(projectId);
    const out = await repository.git(['ls-tree', '-r', '-z', '--name-only', sha], { okExitCodes: [128] });
    return out.exitCode === 0 ? out.stdout.toString('utf8').split('\0').filter(Boolean) : [];
  }

  /** Paths changed between two commits; null when there is no `before` (new branch, tag): `changes` then holds. */
  async changedFiles(projectId: number, before: string | null, after: string): Promise<string[] | null> {
    if (!before || before === ZERO_SHA) return null;
    const repository = await this.repository(projectId);
    const out = await repository.git(['diff', '--name-only', '-z', '--no-renames', before, after], { okExitCodes: [128] });
    return out.exitCode === 0 ? out.stdout.toString('utf8').split('\0').filter(Boolean) : null;
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
    return (await this.repository(projectId)).commit(sha);
  }
}
