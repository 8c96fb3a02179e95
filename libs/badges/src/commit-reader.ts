import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const GIT_TIMEOUT_MS = 5_000;
const SHA = /^[0-9a-f]{40,64}$/;
/** A branch name git accepts as a ref component (no option-like or odd names reach git). */
const SAFE_BRANCH = /^(?!-)(?!.*\.\.)[^\s~^:?*[\\\u0000-\u001f\u007f]+$/;

/**
 * Reads what badges need from a project's bare repository (`REPOSITORIES_DIR/<id>.git`): the
 * head of a branch and the newest tag. Any failure (no repository yet, empty repository,
 * unknown branch) reads as ''.
 */
@Injectable()
export class BadgeCommitReader {
  private readonly logger = new Logger(BadgeCommitReader.name);

  constructor(private readonly config: AppConfig) {}

  private gitDir(projectId: number): string | null {
    const dir = join(this.config.repositoriesDir, `${projectId}.git`);
    return existsSync(dir) ? dir : null;
  }

  async branchHead(projectId: number, branch: string | null): Promise<string> {
    const gitDir = this.gitDir(projectId);
    if (!gitDir || !branch || !SAFE_BRANCH.test(branch)) return '';
    const out = await this.git(gitDir, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]);
    return SHA.test(out) ? out : '';
  }

  async latestTag(projectId: number): Promise<string> {
    const gitDir = this.gitDir(projectId);
    if (!gitDir) return '';
    return this.git(gitDir, ['for-each-ref', '--sort=-creatordate', '--count=1', '--format=%(refname:strip=2)', 'refs/tags']);
  }

  private git(gitDir: string, args: string[]): Promise<string> {
    return new Promise((resolve) => {
      execFile('git', [`--git-dir=${gitDir}`, ...args], { timeout: GIT_TIMEOUT_MS, maxBuffer: 64 * 1024 }, (error, stdout) => {
        if (error) {
          if (typeof error.code !== 'number') this.logger.warn(`git ${args[0]} failed in ${gitDir}: ${error.message}`);
          resolve('');
          return;
        }
        resolve(stdout.trim());
      });
    });
  }
}
