import { existsSync } from 'node:fs';
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GitRunOptions, runGit } from './git-cli';

export const ZERO_SHA = '0000000000000000000000000000000000000000';
export const SHA_PATTERN = /^[0-9a-f]{40}$/;

export interface GitIdentity {
  name: string;
  email: string;
  /** Date of the commit; now when absent. */
  date?: Date;
}

export interface GitCommit {
  id: string;
  parentIds: string[];
  authorName: string;
  authorEmail: string;
  authoredDate: string;
  committerName: string;
  committerEmail: string;
  committedDate: string;
  message: string;
  title: string;
  /** `Key: value` trailers of the message, in order. */
  trailers: Array<[string, string]>;
}

export interface TreeEntry {
  mode: string;
  type: string;
  sha: string;
  /** Blob size in bytes (null for trees and submodules). */
  size: number | null;
  path: string;
}

export interface FileChanges {
  added: string[];
  modified: string[];
  removed: string[];
}

export interface RefUpdate {
  ref: string;
  before: string;
  after: string;
}

const FIELD = '\x1f';
const RECORD = '\x1e';
const COMMIT_FORMAT = ['%H', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%(trailers:only=true,unfold=true)', '%B'].join('%x1f') + '%x1e';

/** Git's validity rules for a branch name (`git check-ref-format --branch`), plus what GitLab refuses on top. */
export async function isValidBranchName(name: string): Promise<boolean> {
  if (name.length === 0 || name.length > 255 || name === 'HEAD' || name.startsWith('-') || name.startsWith('refs/') || SHA_PATTERN.test(name)) return false;
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false;
  const { exitCode } = await runGit(['check-ref-format', `refs/heads/${name}`], { okExitCodes: [1] });
  return exitCode === 0;
}

/** A full object id (SHA-1 or SHA-256): what is read at one never changes. */
export const OBJECT_ID_PATTERN = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * A branch name that is a plain path under `refs/heads/` (components of safe characters, none
 * empty or starting with a dot, no `.lock` ending): its ref file is found by joining it.
 */
const PLAIN_REF_PATH = /^(?!.*(?:^|\/)\.)(?!.*\.lock(?:\/|$))(?!.*\/\/)(?!.*\/$)[A-Za-z0-9._\/-]{1,255}$/;

/** A ref name is safe to hand to git as an argument (never an option). */
const assertRevision = (rev: string): void => {
  if (rev.length === 0 || rev.startsWith('-') || /[\x00\s]/.test(rev)) throw new Error(`Unsafe revision: ${JSON.stringify(rev)}`);
};

/**
 * The `git rev-list` range of what `include` reaches and none of `exclude` does (revisions
 * checked); `excludeAllRefsBut`: also leave out what any other branch or tag reaches.
 */
function revListRange(include: string, exclude: string[], excludeAllRefsBut?: string[]): string[] {
  assertRevision(include);
  exclude.forEach(assertRevision);
  const range = [include, '--not', ...exclude];
  // Other branches and tags (not HEAD, which names a branch that may be the one excluded).
  // (`--exclude` patterns of --branches/--tags are names without their refs/heads/, refs/tags/ prefix.)
  const excludes = (prefix: string) => (excludeAllRefsBut ?? []).filter((ref) => ref.startsWith(prefix)).map((ref) => `--exclude=${ref.slice(prefix.length)}`);
  if (excludeAllRefsBut) range.push(...excludes('refs/heads/'), '--branches', ...excludes('refs/tags/'), '--tags');
  return range;
}

/**
 * One bare repository on disk, driven through the `git` CLI. Every call spawns git with an
 * argument array and the clean environment of `gitEnvironment()`.
 */
export class GitRepository {
  constructor(readonly path: string) {}

  /** Creates an empty bare repository whose HEAD names `defaultBranch`. */
  static async init(path: string, defaultBranch: string): Promise<GitRepository> {
    await runGit(['init', '--bare', '--quiet', `--initial-branch=${defaultBranch}`, path]);
    // Reflogs of every ref help recovery (written directly: one process less per new project).
    await appendFile(join(path, 'config'), '[core]\n\tlogAllRefUpdates = true\n');
    return new GitRepository(path);
  }

  exists(): boolean {
    return existsSync(join(this.path, 'HEAD')) && existsSync(join(this.path, 'objects'));
  }

  async remove(): Promise<void> {
    await rm(this.path, { recursive: true, force: true });
  }

  git(args: string[], options: GitRunOptions = {}) {
    return runGit([`--git-dir=${this.path}`, ...args], { cwd: this.path, ...options });
  }

  private async text(args: string[], options: GitRunOptions = {}): Promise<string> {
    return (await this.git(args, options)).stdout.toString('utf8');
  }

  /** The branch HEAD points at (may not exist yet). */
  async headBranch(): Promise<string | null> {
    const head = (await readFile(join(this.path, 'HEAD'), 'utf8').catch(() => '')).trim();
    const match = /^ref: refs\/heads\/(.+)$/.exec(head);
    return match ? match[1] : null;
  }

  /** Points HEAD at `branch` (what a clone checks out). */
  async setHeadBranch(branch: string): Promise<void> {
    if ((await this.headBranch()) === branch) return;
    await writeFile(join(this.path, 'HEAD'), `ref: refs/heads/${branch}\n`);
  }

  /** The commit a revision names, or null (unknown, or not a commit). */
  async resolveCommit(revision: string, options: GitRunOptions = {}): Promise<string | null> {
    assertRevision(revision);
    const { stdout, exitCode } = await this.git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`], {
      ...options,
      okExitCodes: [1, 128],
    });
    return exitCode === 0 ? stdout.toString('utf8').trim() : null;
  }

  /**
   * The commit a branch points at, or null when there is no such branch, read from the ref files
   * (the loose ref, else `packed-refs`) instead of spawning `git`: a process spawned from a large
   * server process costs milliseconds, and pipelines resolve their branch for every creation.
   * Git keeps branches on commits (it refuses to write anything else under `refs/heads/`), so no
   * peeling is needed. What the files do not answer plainly (a name that is not a plain ref
   * path, a symbolic ref) is asked of `git rev-parse`; a name no branch can have is null.
   */
  async branchHead(name: string): Promise<string | null> {
    const ref = `refs/heads/${name}`;
    if (name.length === 0 || name.startsWith('-') || /[\x00-\x20\x7f]/.test(name)) return null;
    if (!PLAIN_REF_PATH.test(name)) return this.resolveCommit(ref);
    const loose = await readFile(join(this.path, ref), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR' || error.code === 'EISDIR') return null;
      throw error;
    });
    if (loose !== null) {
      const target = loose.trim();
      return OBJECT_ID_PATTERN.test(target) ? target : this.resolveCommit(ref);
    }
    const packed = await readFile(join(this.path, 'packed-refs'), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    const suffix = ` ${ref}`;
    for (const line of packed.split('\n')) {
      if (line.endsWith(suffix) && OBJECT_ID_PATTERN.test(line.slice(0, -suffix.length))) return line.slice(0, -suffix.length);
    }
    return null;
  }

  /** The object a full ref name points at, or null. */
  async refTarget(ref: string): Promise<string | null> {
    assertRevision(ref);
    const { stdout, exitCode } = await this.git(['rev-parse', '--verify', '--quiet', '--end-of-options', ref], { okExitCodes: [1, 128] });
    return exitCode === 0 ? stdout.toString('utf8').trim() : null;
  }

  /** Branch name → commit sha, sorted by name. */
  async branches(): Promise<Map<string, string>> {
    const out = await this.text(['for-each-ref', '--sort=refname', '--format=%(objectname) %(refname)', 'refs/heads/']);
    const branches = new Map<string, string>();
    for (const line of out.split('\n')) {
      if (!line) continue;
      const space = line.indexOf(' ');
      branches.set(line.slice(space + 1).replace(/^refs\/heads\//, ''), line.slice(0, space));
    }
    return branches;
  }

  async hasBranches(): Promise<boolean> {
    const out = await this.text(['for-each-ref', '--count=1', '--format=%(refname)', 'refs/heads/']);
    return out.trim().length > 0;
  }

  /** Commit details, in the order of `shas` (unknown ones are left out). */
  async commits(shas: string[]): Promise<GitCommit[]> {
    const unique = [...new Set(shas)];
    if (unique.length === 0) return [];
    unique.forEach(assertRevision);
    const out = await this.text(['log', '--no-walk=unsorted', `--format=${COMMIT_FORMAT}`, '--end-of-options', ...unique]);
    const bySha = new Map<string, GitCommit>();
    for (const record of out.split(RECORD)) {
      const trimmed = record.replace(/^\n/, '');
      if (!trimmed) continue;
      const [id, parents, an, ae, ad, cn, ce, cd, trailers, message] = trimmed.split(FIELD);
      if (!id) continue;
      bySha.set(id, {
        id,
        parentIds: parents ? parents.split(' ') : [],
        authorName: an,
        authorEmail: ae,
        authoredDate: gitlabDate(ad),
        committerName: cn,
        committerEmail: ce,
        committedDate: gitlabDate(cd),
        message: message ?? '',
        title: (message ?? '').split('\n')[0] ?? '',
        trailers: parseTrailers(trailers ?? ''),
      });
    }
    return shas.map((sha) => bySha.get(sha)).filter((c): c is GitCommit => c !== undefined);
  }

  async commit(sha: string): Promise<GitCommit | null> {
    const [commit] = await this.commits([sha]);
    return commit ?? null;
  }

  /** Whether `ancestor` is reachable from `descendant` (a fast-forward from one to the other). */
  async isAncestor(ancestor: string, descendant: string, options: GitRunOptions = {}): Promise<boolean> {
    assertRevision(ancestor);
    assertRevision(descendant);
    const { exitCode } = await this.git(['merge-base', '--is-ancestor', ancestor, descendant], { ...options, okExitCodes: [1] });
    return exitCode === 0;
  }

  /**
   * Commits reachable from `include` and from none of `exclude`, newest first (at most `limit`),
   * and their total. `excludeAllRefsBut`: also leave out what any other branch or tag reaches.
   */
  async revList(include: string, exclude: string[], options: { limit: number; excludeAllRefsBut?: string[] }): Promise<{ shas: string[]; total: number }> {
    const range = revListRange(include, exclude, options.excludeAllRefsBut);
    const [list, count] = await Promise.all([this.text(['rev-list', `--max-count=${options.limit}`, ...range]), this.text(['rev-list', '--count', ...range])]);
    return { shas: list.split('\n').filter(Boolean), total: Number(count.trim()) || 0 };
  }

  /** The commits of `revList` without their total (one `git` process instead of two). */
  async revListShas(include: string, exclude: string[], options: { limit: number }): Promise<string[]> {
    const list = await this.text(['rev-list', `--max-count=${options.limit}`, ...revListRange(include, exclude)]);
    return list.split('\n').filter(Boolean);
  }

  /** Files a commit added, modified and removed compared to its first parent (or to nothing for a root commit). */
  async fileChanges(sha: string): Promise<FileChanges> {
    assertRevision(sha);
    const out = await this.text(['diff-tree', '-r', '--root', '--no-commit-id', '--name-status', '--no-renames', '-z', sha]);
    const changes: FileChanges = { added: [], modified: [], removed: [] };
    const parts = out.split('\0');
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const status = parts[i];
      const path = parts[i + 1];
      if (status.startsWith('A')) changes.added.push(path);
      else if (status.startsWith('D')) changes.removed.push(path);
      else if (status) changes.modified.push(path);
    }
    return changes;
  }

  /** Every blob of a commit's tree with its size. */
  async lsTree(revision: string): Promise<TreeEntry[]> {
    assertRevision(revision);
    const out = await this.text(['ls-tree', '-r', '-l', '-z', '--full-tree', revision]);
    const entries: TreeEntry[] = [];
    for (const line of out.split('\0')) {
      if (!line) continue;
      const tab = line.indexOf('\t');
      const [mode, type, sha, size] = line.slice(0, tab).split(/\s+/);
      entries.push({ mode, type, sha, size: size === '-' ? null : Number(size), path: line.slice(tab + 1) });
    }
    return entries;
  }

  /** `git cat-file -t`: the type of an object, or null when it does not exist. */
  async objectType(sha: string, options: GitRunOptions = {}): Promise<string | null> {
    assertRevision(sha);
    const { stdout, exitCode } = await this.git(['cat-file', '-t', sha], { ...options, okExitCodes: [1, 128] });
    return exitCode === 0 ? stdout.toString('utf8').trim() : null;
  }

  /** The message of an annotated tag object (null for a lightweight tag). */
  async tagMessage(sha: string, options: GitRunOptions = {}): Promise<string | null> {
    if ((await this.objectType(sha, options)) !== 'tag') return null;
    const raw = (await this.git(['cat-file', 'tag', sha], options)).stdout.toString('utf8');
    const blank = raw.indexOf('\n\n');
    return blank === -1
      ? ''
      : raw
          .slice(blank + 2)
          .replace(/\n-----BEGIN PGP SIGNATURE-----[\s\S]*$/, '')
          .replace(/\n$/, '');
  }

  /** Atomically moves `ref` from `expected` (ZERO_SHA: must not exist) to `sha`. */
  async updateRef(ref: string, sha: string, expected: string, message = 'update'): Promise<void> {
    assertRevision(ref);
    await this.git(['update-ref', '-m', message, ref, sha, expected]);
  }

  async deleteRef(ref: string, expected: string): Promise<void> {
    assertRevision(ref);
    await this.git(['update-ref', '-d', ref, expected]);
  }

  /** Writes a blob and returns its sha. */
  async writeBlob(content: string | Buffer): Promise<string> {
    return (await this.text(['hash-object', '-w', '--stdin'], { input: content })).trim();
  }

  /** Writes a flat tree of blobs (`name` → blob sha) and returns its sha. */
  async writeTree(files: Array<{ name: string; blob: string }>): Promise<string> {
    const input = files.map((f) => `100644 blob ${f.blob}\t${f.name}`).join('\n') + (files.length ? '\n' : '');
    return (await this.text(['mktree'], { input })).trim();
  }

  /** Creates a commit object (no ref moves) and returns its sha. */
  async commitTree(tree: string, parents: string[], message: string, author: GitIdentity, committer: GitIdentity = author): Promise<string> {
    assertRevision(tree);
    parents.forEach(assertRevision);
    const args = ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p])];
    const date = (d?: Date) => `${Math.floor((d ?? new Date()).getTime() / 1000)} +0000`;
    const out = await this.text(args, {
      input: message,
      env: {
        GIT_AUTHOR_NAME: author.name,
        GIT_AUTHOR_EMAIL: author.email,
        GIT_AUTHOR_DATE: date(author.date),
        GIT_COMMITTER_NAME: committer.name,
        GIT_COMMITTER_EMAIL: committer.email,
        GIT_COMMITTER_DATE: date(committer.date),
      },
    });
    return out.trim();
  }

  /** The tree of a commit. */
  async treeOf(commit: string): Promise<string> {
    assertRevision(commit);
    return (await this.text(['rev-parse', '--verify', `${commit}^{tree}`])).trim();
  }

  /** Three-way merge without a working copy (`git merge-tree --write-tree`): the merged tree, or null on conflicts. */
  async mergeTree(ours: string, theirs: string): Promise<string | null> {
    assertRevision(ours);
    assertRevision(theirs);
    const { stdout, exitCode } = await this.git(['merge-tree', '--write-tree', '--no-messages', ours, theirs], { okExitCodes: [1] });
    if (exitCode !== 0) return null;
    return stdout.toString('utf8').split('\n')[0].trim();
  }

  /** The best common ancestor of two commits, or null. */
  async mergeBase(a: string, b: string): Promise<string | null> {
    assertRevision(a);
    assertRevision(b);
    const { stdout, exitCode } = await this.git(['merge-base', a, b], { okExitCodes: [1] });
    return exitCode === 0 ? stdout.toString('utf8').trim() : null;
  }
}

/** `2024-01-02T03:04:05+01:00` → GitLab's `2024-01-02T03:04:05.000+01:00`. */
const gitlabDate = (iso: string): string => iso.replace(/^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)([+-]\d\d:\d\d|Z)$/, '$1.000$2');

function parseTrailers(text: string): Array<[string, string]> {
  const trailers: Array<[string, string]> = [];
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    trailers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return trailers;
}
