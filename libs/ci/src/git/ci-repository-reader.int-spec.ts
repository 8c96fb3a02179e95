import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '@app/config';
import { RepositoryStorage } from '@app/repository';
import { CiRepositoryReader } from './ci-repository-reader';

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout.trim();
}

describe('CiRepositoryReader', () => {
  let root: string;
  let reader: CiRepositoryReader;
  let sha: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'ci-reader-'));
    const work = join(root, 'work');
    git(root, 'init', '-q', '-b', 'main', work);
    writeFileSync(join(work, '.gitlab-ci.yml'), 'job: { script: [echo] }\n');
    git(work, 'add', '.');
    git(work, 'commit', '-q', '-m', 'CI');
    sha = git(work, 'rev-parse', 'HEAD');
    git(root, 'clone', '-q', '--bare', work, join(root, 'repositories', '7.git'));
    reader = new CiRepositoryReader(new RepositoryStorage({ repositoriesDir: join(root, 'repositories') } as AppConfig));
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('keeps what it read at a commit id, and reads refs anew every time', async () => {
    expect(await reader.readFile(7, sha, '.gitlab-ci.yml')).toBe('job: { script: [echo] }\n');
    expect(await reader.files(7, sha)).toEqual(['.gitlab-ci.yml']);
    expect((await reader.commit(7, sha))?.title).toBe('CI');
    expect(await reader.readFile(7, sha, 'missing.yml')).toBeNull();
    expect((await reader.resolveRef(7, 'main'))?.sha).toBe(sha);

    // With the repository gone, what was read at the commit is still known; the ref is not.
    rmSync(join(root, 'repositories', '7.git'), { recursive: true, force: true });
    spawnSync('git', ['init', '-q', '--bare', join(root, 'repositories', '7.git')]);
    expect(await reader.readFile(7, sha, '.gitlab-ci.yml')).toBe('job: { script: [echo] }\n');
    expect(await reader.files(7, sha)).toEqual(['.gitlab-ci.yml']);
    expect((await reader.commit(7, sha))?.title).toBe('CI');
    expect(await reader.readFile(7, sha, 'missing.yml')).toBeNull();
    expect(await reader.resolveRef(7, 'main')).toBeNull();
    // Not by a ref name (it moves), nor for another project.
    expect(await reader.readFile(7, 'main', '.gitlab-ci.yml')).toBeNull();
    expect(await reader.readFile(8, sha, '.gitlab-ci.yml')).toBeNull();
  });

  it('hands out frozen answers, so that no caller changes them for the next', async () => {
    const files = await reader.files(7, sha);
    expect(() => (files as string[]).push('x')).toThrow(TypeError);
    const commit = (await reader.commit(7, sha))!;
    expect(() => commit.parentIds.push('x')).toThrow(TypeError);
    expect(await reader.files(7, sha)).toEqual(['.gitlab-ci.yml']);
  });
});
