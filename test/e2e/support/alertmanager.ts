import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** A free loopback port (the OS picks it; closed again before use). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

export interface RunningAlertmanager {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts Prometheus Alertmanager (Debian's `prometheus-alertmanager`, installed by
 * `scripts/alertmanager.sh` when missing) on a free loopback port with `config` (YAML text),
 * clustering off, its data in a temporary directory; resolves once it is ready.
 */
export async function startAlertmanager(config: string): Promise<RunningAlertmanager> {
  const binary = execFileSync('bash', [resolve(__dirname, '../../../scripts/alertmanager.sh')], { encoding: 'utf8' }).trim();
  const dir = mkdtempSync(join(tmpdir(), 'e2e-am-'));
  writeFileSync(join(dir, 'alertmanager.yml'), config);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    binary,
    [
      `--config.file=${join(dir, 'alertmanager.yml')}`,
      `--storage.path=${dir}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=',
      '--log.level=warn',
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`alertmanager exited (${child.exitCode}): ${stderr}`);
    try {
      if ((await fetch(`${url}/-/ready`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`alertmanager not ready within 30 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, process: child, stop };
}
