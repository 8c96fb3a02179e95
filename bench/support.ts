import { cpus, loadavg } from 'node:os';

/** Small pieces every benchmark script shares. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const write = (line: string) => process.stdout.write(`${line}\n`);

/** The figures depend on what else runs: say it next to them. */
export const machine = () => `${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`;

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
