import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { cpus, loadavg } from 'node:os';

/** Small pieces every benchmark script shares. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const write = (line: string) => process.stdout.write(`${line}\n`);

/** A number with thousands separators and `digits` decimals. */
export const fixed = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** A TCP port free on loopback now. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

/** The figures depend on what else runs: say it next to them. */
export const machine = () =>
  `${cpus().length} CPUs, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;

/** The `p`th percentile of ascending `sorted` (0 when empty). */
export const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Polls `url` until it answers 2xx, for at most `timeoutMs`. */
export async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/**
 * CPU seconds (user + system) spent so far by these processes, from `/proc` (Linux); with
 * `children`, also by their exited children (PostgreSQL backends that ended). 0 elsewhere.
 */
export function cpuSecondsOf(pids: number[], children = false): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15, cutime 16, cstime 17.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
      if (children) ticks += Number(fields[13]) + Number(fields[14]);
    } catch {
      // the process is gone
    }
  }
  return ticks / CLOCK_TICKS;
}

/** Clock ticks per second of `/proc` times (`getconf CLK_TCK`, 100 on Linux). */
const CLOCK_TICKS = 100;

/** The pids of the processes named exactly `name` (pgrep), none when pgrep finds nothing. */
export function pidsNamed(name: string, fullCommandLine = false): number[] {
  const found = spawnSync('pgrep', fullCommandLine ? ['-f', name] : ['-x', name], { encoding: 'utf8' });
  return (found.stdout ?? '').split('\n').filter(Boolean).map(Number);
}

/** CPU seconds (user + system) spent so far by this process. */
export function ownCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/** CPU seconds so far of PostgreSQL: all its processes, with the backends that ended. */
export const postgresCpuSeconds = () => cpuSecondsOf(pidsNamed('postgres'), true);

/**
 * The CPU of the PostgreSQL backends connected to `database` (a pool's sessions), without the
 * machine's other databases, their autovacuum and sessions: a reading per backend, and the
 * seconds spent between two readings by the backends of the second (a session that ended in
 * between is not counted; one that began is, whole).
 */
export const postgresSessions = {
  read(database: string): Map<number, number> {
    return new Map(pidsNamed(`^postgres: (.+: )?[^ ]+ ${database} `, true).map((pid) => [pid, cpuSecondsOf([pid])]));
  },
  secondsBetween(from: Map<number, number>, to: Map<number, number>): number {
    let seconds = 0;
    for (const [pid, cpu] of to) seconds += cpu - (from.get(pid) ?? 0);
    return seconds;
  },
};

/** CPU seconds so far of the service's processes: the gateway (`gatewayPid`), PostgreSQL (all its processes) and Kafka. */
export const serviceCpuSeconds = (gatewayPid: number) => ({
  gateway: cpuSecondsOf([gatewayPid]),
  postgres: postgresCpuSeconds(),
  kafka: cpuSecondsOf(pidsNamed('kafka.Kafka', true)),
});

/** Microseconds of CPU per unit of work of each entry, between two readings in seconds. */
export function cpuPerUnit<T extends Record<string, number>>(from: T, to: T, units: number): T {
  return Object.fromEntries(Object.keys(from).map((k) => [k, ((to[k] - from[k]) * 1e6) / units])) as T;
}
