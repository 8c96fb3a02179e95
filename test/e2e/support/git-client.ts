import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The real `git` client in a hermetic environment: its own HOME, no system or global
 * configuration, no credential helper, no prompt (credentials go in the URL).
 */
export class GitClient {
  readonly home = mkdtempSync(join(tmpdir(), 'svc-git-client-'));

  run(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<GitRun> {
    return new Promise((resolve, reject) => {
      const child = spawn('git', args, {
        cwd: options.cwd ?? this.home,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: this.home,
          LC_ALL: 'C',
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: '/dev/null',
          GIT_TERMINAL_PROMPT: '0',
          GIT_ASKPASS: '/bin/false',
          GIT_AUTHOR_NAME: 'Test Author',
          GIT_AUTHOR_EMAIL: 'author@example.com',
          GIT_COMMITTER_NAME: 'Test Author',
          GIT_COMMITTER_EMAIL: 'author@example.com',
          ...options.env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
  }

  /** Runs and expects success. */
  async ok(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<string> {
    const result = await this.run(args, options);
    if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
    return result.stdout.trim();
  }

  /** Writes a file in a work tree and commits it; returns the new commit sha. */
  async commitFile(dir: string, name: string, content: string, message: string): Promise<string> {
    writeFileSync(join(dir, name), content);
    await this.ok(['add', name], { cwd: dir });
    await this.ok(['commit', '-q', '-m', message], { cwd: dir });
    return this.ok(['rev-parse', 'HEAD'], { cwd: dir });
  }

  dir(name: string): string {
    return join(this.home, name);
  }

  cleanup(): void {
    rmSync(this.home, { recursive: true, force: true });
  }
}

/** `http://user:token@host/path.git` for the gateway. */
export function cloneUrl(baseUrl: string, fullPath: string, credentials?: { username: string; token: string }): string {
  const url = new URL(`${baseUrl}/${fullPath}.git`);
  if (credentials) {
    url.username = encodeURIComponent(credentials.username);
    url.password = encodeURIComponent(credentials.token);
  }
  return url.toString();
}
