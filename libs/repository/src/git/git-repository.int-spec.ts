import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitEnvironment, runGit } from './git-cli';
import { GitRepository, isValidBranchName, ZERO_SHA } from './git-repository';

/** The git wrapper against the real `git` CLI, in a temporary directory. */
describe(GitRepository.name, () => {
  let dir: string;
  let sut: GitRepository;
  const author = { name: 'Ada', email: 'ada@example.com', date: new Date('2024-01-02T03:04:05Z') };

  const commitFiles = async (files: Record<string, string>, parents: string[], message: string): Promise<string> => {
    const entries = await Promise.all(Object.entries(files).map(async ([name, content]) => ({ name, blob: await sut.writeBlob(content) })));
    return sut.commitTree(await sut.writeTree(entries), parents, message, author);
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-git-int-'));
    sut = await GitRepository.init(join(dir, '1.git'), 'main');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs git with a clean environment (no inherited GIT_* variables, no user configuration)', () => {
    process.env.GIT_DIR = '/elsewhere';
    try {
      const env = gitEnvironment({ EXTRA: '1' });
      expect(env.GIT_DIR).toBeUndefined();
      expect(env).toMatchObject({ GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0', EXTRA: '1' });
    } finally {
      delete process.env.GIT_DIR;
    }
  });

  it('creates a bare repository whose HEAD names the default branch', async () => {
    expect(sut.exists()).toBe(true);
    expect(await sut.headBranch()).toBe('main');
    expect(await sut.hasBranches()).toBe(false);
    await sut.setHeadBranch('trunk');
    expect(await sut.headBranch()).toBe('trunk');
    expect((await runGit(['--git-dir', sut.path, 'rev-parse', '--is-bare-repository'])).stdout.toString().trim()).toBe('true');
    expect((await sut.git(['config', '--bool', 'core.logAllRefUpdates'])).stdout.toString().trim()).toBe('true');
  });

  it('writes commits with plumbing and reads them back with trailers', async () => {
    const root = await commitFiles({ 'README.md': '# Hi\n' }, [], 'Initial commit\n\nBody line\n\nSigned-off-by: Ada <ada@example.com>\n');
    await sut.updateRef('refs/heads/main', root, ZERO_SHA);
    const commit = await sut.commit(root);
    expect(commit).toMatchObject({
      id: root,
      parentIds: [],
      authorName: 'Ada',
      authorEmail: 'ada@example.com',
      authoredDate: '2024-01-02T03:04:05.000+00:00',
      title: 'Initial commit',
      trailers: [['Signed-off-by', 'Ada <ada@example.com>']],
    });
    expect(commit!.message).toContain('Body line');
    expect(await sut.resolveCommit('main')).toBe(root);
    expect(await sut.resolveCommit('refs/heads/main')).toBe(root);
    expect(await sut.resolveCommit(root.slice(0, 10))).toBe(root);
    expect(await sut.resolveCommit('nope')).toBeNull();
    await expect(sut.resolveCommit('--output=/tmp/x')).rejects.toThrow(/Unsafe revision/);
    expect([...(await sut.branches()).entries()]).toEqual([['main', root]]);
  });

  it('moves refs only from the expected value (compare-and-swap)', async () => {
    const a = await commitFiles({ a: 'a' }, [], 'a');
    const b = await commitFiles({ b: 'b' }, [a], 'b');
    await sut.updateRef('refs/heads/main', a, ZERO_SHA);
    await expect(sut.updateRef('refs/heads/main', b, ZERO_SHA)).rejects.toThrow();
    await sut.updateRef('refs/heads/main', b, a);
    await expect(sut.deleteRef('refs/heads/main', a)).rejects.toThrow();
    await sut.deleteRef('refs/heads/main', b);
    expect(await sut.refTarget('refs/heads/main')).toBeNull();
  });

  it('reads branch heads from the ref files, loose or packed, as rev-parse does', async () => {
    const a = await commitFiles({ 'a.txt': 'a' }, [], 'a');
    const b = await commitFiles({ 'b.txt': 'b' }, [a], 'b');
    await sut.updateRef('refs/heads/main', a, ZERO_SHA);
    await sut.updateRef('refs/heads/feature/deep', b, ZERO_SHA);
    expect(await sut.branchHead('main')).toBe(a);
    expect(await sut.branchHead('feature/deep')).toBe(b);
    expect(await sut.branchHead('feature')).toBeNull();
    expect(await sut.branchHead('missing')).toBeNull();
    await sut.git(['pack-refs', '--all', '--prune']);
    expect(await sut.branchHead('main')).toBe(a);
    expect(await sut.branchHead('feature/deep')).toBe(b);
    // A loose ref written after packing wins over the packed one.
    await sut.updateRef('refs/heads/main', b, a);
    expect(await sut.branchHead('main')).toBe(b);
    expect(await sut.branchHead('main')).toBe(await sut.resolveCommit('refs/heads/main'));
    // Names that are no plain path are left to git, which finds nothing outside refs/heads/.
    for (const name of ['../HEAD', '../../config', 'a//b', '.hidden', 'x.lock', 'feature/', 'ma in']) expect(await sut.branchHead(name)).toBeNull();
    await sut.git(['symbolic-ref', 'refs/heads/alias', 'refs/heads/feature/deep']);
    expect(await sut.branchHead('alias')).toBe(b);
  });

  it('answers ancestry, rev-list ranges with totals, and file changes', async () => {
    const a = await commitFiles({ keep: '1', gone: 'x' }, [], 'a');
    const b = await commitFiles({ keep: '2', added: 'y' }, [a], 'b');
    const c = await commitFiles({ keep: '3', added: 'y' }, [b], 'c');
    await sut.updateRef('refs/heads/main', a, ZERO_SHA);
    expect(await sut.isAncestor(a, c)).toBe(true);
    expect(await sut.isAncestor(c, a)).toBe(false);
    expect(await sut.revList(c, [a], { limit: 1 })).toEqual({ shas: [c], total: 2 });
    expect(await sut.revListShas(c, [a], { limit: 10 })).toEqual([c, b]);
    expect(await sut.revListShas(c, [a], { limit: 1 })).toEqual([c]);
    await expect(sut.revListShas('--all', [], { limit: 1 })).rejects.toThrow('Unsafe revision');
    expect(await sut.revList(c, [], { limit: 10, excludeAllRefsBut: ['refs/heads/topic'] })).toEqual({ shas: [c, b], total: 2 });
    expect(await sut.fileChanges(b)).toEqual({ added: ['added'], modified: ['keep'], removed: ['gone'] });
    expect(await sut.fileChanges(a)).toEqual({ added: ['gone', 'keep'], modified: [], removed: [] });
  });

  it('merges trees without a working copy and reports conflicts', async () => {
    const base = await commitFiles({ f: 'base\n', g: 'g\n' }, [], 'base');
    const ours = await commitFiles({ f: 'base\n', g: 'g2\n' }, [base], 'ours');
    const theirs = await commitFiles({ f: 'theirs\n', g: 'g\n' }, [base], 'theirs');
    const conflicting = await commitFiles({ f: 'base\n', g: 'other\n' }, [base], 'conflict');
    const tree = await sut.mergeTree(ours, theirs);
    expect(tree).toMatch(/^[0-9a-f]{40}$/);
    const entries = await sut.lsTree(await sut.commitTree(tree!, [ours, theirs], 'merge', author));
    expect(entries.map((e) => [e.path, e.size])).toEqual([
      ['f', 7],
      ['g', 3],
    ]);
    expect(await sut.mergeTree(ours, conflicting)).toBeNull();
    expect(await sut.mergeBase(ours, theirs)).toBe(base);
  });

  it('reads annotated tag messages (null for lightweight tags)', async () => {
    const a = await commitFiles({ a: 'a' }, [], 'a');
    const tagger = { GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' };
    await sut.git(['tag', '-a', 'v1', '-m', 'Release one', a], { env: tagger });
    await sut.git(['tag', 'light', a]);
    const annotated = (await sut.refTarget('refs/tags/v1'))!;
    expect(await sut.tagMessage(annotated)).toBe('Release one');
    expect(await sut.tagMessage((await sut.refTarget('refs/tags/light'))!)).toBeNull();
    expect(await sut.resolveCommit(annotated)).toBe(a);
  });

  it('validates branch names as git and GitLab do', async () => {
    for (const name of ['main', 'feature/x', 'release-1.0', 'a_b']) expect(await isValidBranchName(name)).toBe(true);
    for (const name of [
      '',
      'a..b',
      'a b',
      '-x',
      'HEAD',
      'x.lock',
      'a/',
      'refs/heads/x',
      'x~1',
      'x^',
      'a:b',
      'a\\b',
      '0123456789012345678901234567890123456789',
    ]) {
      expect(await isValidBranchName(name)).toBe(false);
    }
  });
});
