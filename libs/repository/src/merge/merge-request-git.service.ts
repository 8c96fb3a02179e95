import { Injectable } from '@nestjs/common';
import type { MergeRequestGit, MergeRequestGitStatus } from '@app/issues';
import type { ProjectWithNamespace } from '@app/namespaces';
import { RepositoryStorage } from '../storage/repository-storage';

type Mergeability = Pick<MergeRequestGitStatus, 'mergeStatus' | 'detailedMergeStatus' | 'hasConflicts'> & { baseSha: string | null };

/** Remembered outcomes of merge checks; commits never change, so an entry is never stale. */
const CACHE_LIMIT = 10_000;
/** Merge checks run at once for one list. */
const PARALLEL_CHECKS = 4;

const BROKEN: Mergeability = { mergeStatus: 'cannot_be_merged', detailedMergeStatus: 'broken_status', hasConflicts: false, baseSha: null };

/**
 * The git side of merge requests: branch existence on creation, and for open merge requests the
 * source head (`sha`) and whether the source merges cleanly into the target
 * (`git merge-tree --write-tree`; with the `ff` and `rebase_merge` methods the target must also
 * be an ancestor of the source, else `need_rebase`). Outcomes are cached in memory per
 * (merge method, source sha, target sha), so a list only runs git for pairs it has not seen.
 */
@Injectable()
export class MergeRequestGitService implements MergeRequestGit {
  private readonly cache = new Map<string, Promise<Mergeability>>();

  constructor(private readonly storage: RepositoryStorage) {}

  async missingBranches(project: ProjectWithNamespace, branches: string[]): Promise<string[]> {
    const existing = await (await this.storage.open(project)).branches();
    return branches.filter((branch) => !existing.has(branch));
  }

  async statuses(project: ProjectWithNamespace, pairs: Array<{ sourceBranch: string; targetBranch: string }>): Promise<MergeRequestGitStatus[]> {
    if (!pairs.length) return [];
    const repository = await this.storage.open(project);
    const branches = await repository.branches();
    const results: MergeRequestGitStatus[] = new Array(pairs.length);
    for (let start = 0; start < pairs.length; start += PARALLEL_CHECKS) {
      await Promise.all(
        pairs.slice(start, start + PARALLEL_CHECKS).map(async (pair, offset) => {
          const source = branches.get(pair.sourceBranch) ?? null;
          const target = branches.get(pair.targetBranch) ?? null;
          const mergeability = source && target ? await this.mergeability(project, source, target) : BROKEN;
          const { baseSha, ...status } = mergeability;
          const diffRefs = source && target ? { baseSha: baseSha ?? target, headSha: source, startSha: target } : null;
          results[start + offset] = { sha: source, ...status, diffRefs };
        }),
      );
    }
    return results;
  }

  private mergeability(project: ProjectWithNamespace, source: string, target: string): Promise<Mergeability> {
    const needsFastForward = project.mergeMethod === 'ff' || project.mergeMethod === 'rebase_merge';
    const key = `${project.id}:${needsFastForward ? 'ff' : 'merge'}:${source}:${target}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const pending = (async (): Promise<Mergeability> => {
      const repository = await this.storage.open(project);
      const baseSha = await repository.mergeBase(target, source);
      if ((await repository.mergeTree(target, source)) === null)
        return { mergeStatus: 'cannot_be_merged', detailedMergeStatus: 'conflict', hasConflicts: true, baseSha };
      if (needsFastForward && !(await repository.isAncestor(target, source)))
        return { mergeStatus: 'can_be_merged', detailedMergeStatus: 'need_rebase', hasConflicts: false, baseSha };
      return { mergeStatus: 'can_be_merged', detailedMergeStatus: 'mergeable', hasConflicts: false, baseSha };
    })();
    pending.catch(() => this.cache.delete(key));
    if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, pending);
    return pending;
  }
}
