import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** Thrown when a git command exits with a status its caller did not expect. */
export class GitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args[0] ?? ''} failed (exit ${exitCode}): ${stderr.trim().slice(0, 500)}`);
    this.name = 'GitCommandError';
  }
}

export interface GitRunOptions {
  /** Bytes written to the command's standard input (then closed). */
  input?: string | Buffer;
  /** Extra environment variables (quarantine directories, identities). */
  env?: Record<string, string | undefined>;
  /** Exit codes that are answers, not failures (e.g. 1 for `merge-base --is-ancestor`). */
  okExitCodes?: number[];
  /** Working directory (a repository's own directory, so that relative quarantine paths resolve). */
  cwd?: string;
}

export interface GitResult {
  stdout: Buffer;
  stderr: string;
  exitCode: number;
}

/** Largest output a buffered git command may produce (ls-tree of big repositories). */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/**
 * The environment of every git subprocess: nothing inherited but PATH, so that no system or
 * user configuration, credential helper, pager, prompt or stray GIT_* variable applies.
 */
export function gitEnvironment(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    // The child finds git where this process does: PATH is the process's own search path, handed
    // on unchanged, not a setting of the service (the one process.env read outside libs/config).
    // eslint-disable-next-line no-restricted-properties
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: '/nonexistent',
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    GIT_PAGER: 'cat',
    GIT_NO_REPLACE_OBJECTS: '1',
  };
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) env[key] = value;
  return env;
}

/** Starts `git <args>` (argument array, never a shell) with the clean environment. */
export function spawnGit(args: readonly string[], env: Record<string, string | undefined> = {}, cwd?: string): ChildProcessWithoutNullStreams {
  return spawn('git', [...args], { env: gitEnvironment(env), stdio: ['pipe', 'pipe', 'pipe'], cwd });
}

/** Runs git to completion, buffering its output. Rejects with GitCommandError on an unexpected exit code. */
export function runGit(args: readonly string[], options: GitRunOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(args, options.env, options.cwd);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) child.kill('SIGKILL');
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 64) err.push(chunk);
    });
    child.on('error', reject);
    // A command that exits before reading its input must not crash the process (EPIPE).
    child.stdin.on('error', () => undefined);
    child.on('close', (code) => {
      const stderr = Buffer.concat(err).toString('utf8');
      const exitCode = code ?? -1;
      if (exitCode === 0 || options.okExitCodes?.includes(exitCode)) resolve({ stdout: Buffer.concat(out), stderr, exitCode });
      else reject(new GitCommandError(args, code, stderr));
    });
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}
