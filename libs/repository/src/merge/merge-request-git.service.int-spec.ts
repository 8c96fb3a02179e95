import type { AppConfig } from '@app/config';
import type { ProjectWithNamespace } from '@app/namespaces';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitRepository, ZERO_SHA } from '../git/git-repository';
import { RepositoryStorage } from '../storage/repository-storage';
import { MergeRequestGitService } from './merge-request-git.service';

/** Merge request git status against real repositories in a temporary directory. */
describe(MergeRequestGitService.name, () => {
  let dir: string;
  let sut: MergeRequestGitService;
  let repository: GitRepository;
  const author = { name: 'Ada', email: 'ada@example.com' };
  const project = (mergeMethod: 'merge' | 'ff' = 'merge') => ({ id: 7, defaultBranch: 'main', mergeMethod }) as unknown as ProjectWithNamespace;

  const branch = async (name: string, files: Record<string, string>, parents: string[]): Promise<string> => {
    const entries = await Promise.all(Object.entries(files).map(async ([file, content]) => ({ name: file, blob: await repository.writeBlob(content) })));
    const sha = await repository.commitTree(await repository.writeTree(entries), parents, `${name}\n`, author);
    const before = (await repository.refTarget(`refs/heads/${name}`)) ?? ZERO_SHA;
    await repository.updateRef(`refs/heads/${name}`, sha, before);
    return sha;
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-mr-git-'));
    const storage = new RepositoryStorage({ repositoriesDir: dir } as AppConfig);
    repository = await storage.create(7, 'main');
    sut = new MergeRequestGitService(storage);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the missing branches; an empty repository has none', async () => {
    expect(await sut.missingBranches(project(), ['feature', 'main'])).toEqual(['feature', 'main']);
    const root = await branch('main', { 'a.txt': 'a\n' }, []);
    await branch('feature', { 'a.txt': 'a\n', 'b.txt': 'b\n' }, [root]);
    expect(await sut.missingBranches(project(), ['feature', 'main', 'gone'])).toEqual(['gone']);
  });

  it('tells mergeable, conflict, need_rebase and broken pairs, running git once per pair of heads', async () => {
    const root = await branch('main', { 'a.txt': 'a\n' }, []);
    const clean = await branch('clean', { 'a.txt': 'a\n', 'b.txt': 'b\n' }, [root]);
    const clash = await branch('clash', { 'a.txt': 'clash\n' }, [root]);
    const mainHead = await branch('main', { 'a.txt': 'main\n' }, [root]);
    const mergeTree = jest.spyOn(GitRepository.prototype, 'mergeTree');

    const pairs = [
      { sourceBranch: 'clean', targetBranch: 'main' },
      { sourceBranch: 'clash', targetBranch: 'main' },
      { sourceBranch: 'gone', targetBranch: 'main' },
    ];
    const first = await sut.statuses(project(), pairs);
    expect(first).toEqual([
      // diff_refs: the merge base, the target's head, the source's head.
      {
        sha: clean,
        mergeStatus: 'can_be_merged',
        detailedMergeStatus: 'mergeable',
        hasConflicts: false,
        diffRefs: { baseSha: root, startSha: mainHead, headSha: clean },
      },
      {
        sha: clash,
        mergeStatus: 'cannot_be_merged',
        detailedMergeStatus: 'conflict',
        hasConflicts: true,
        diffRefs: { baseSha: root, startSha: mainHead, headSha: clash },
      },
      { sha: null, mergeStatus: 'cannot_be_merged', detailedMergeStatus: 'broken_status', hasConflicts: false, diffRefs: null },
    ]);
    expect(mergeTree).toHaveBeenCalledTimes(2);
    expect(await sut.statuses(project(), pairs)).toEqual(first);
    expect(mergeTree).toHaveBeenCalledTimes(2);

    // Fast-forward methods also need the target in the source's history.
    expect((await sut.statuses(project('ff'), [pairs[0]]))[0]).toMatchObject({ mergeStatus: 'can_be_merged', detailedMergeStatus: 'need_rebase' });

    // A new target head is a new pair: checked again.
    await branch('main', { 'a.txt': 'clash\n' }, [clash]);
    expect((await sut.statuses(project(), [pairs[1]]))[0]).toMatchObject({ detailedMergeStatus: 'mergeable', hasConflicts: false });
    expect(mergeTree).toHaveBeenCalledTimes(4);
  });
});
