import { Agent, request } from 'node:http';
import { percentile } from './support';

/** One HTTP request of a load run. */
export interface LoadRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface LoadResult {
  requests: number;
  failures: number;
  seconds: number;
  rate: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
}

function post(agent: Agent, base: URL, req: LoadRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const r = request(
      { agent, host: base.hostname, port: base.port, method: 'POST', path: req.path, headers: { 'content-type': 'application/json', ...req.headers } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    r.on('error', reject);
    r.end(req.body);
  });
}

/**
 * Closed loop: `concurrency` workers send `total` requests as fast as answers come.
 * With `ratePerSecond`, an open loop instead: requests start on a fixed schedule (latency
 * then includes any queueing the server causes).
 */
export async function runLoad(
  baseUrl: string,
  next: (i: number) => LoadRequest,
  options: { total: number; concurrency: number; ratePerSecond?: number },
): Promise<LoadResult> {
  const base = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let failures = 0;
  let issued = 0;
  const started = performance.now();

  const one = async (i: number, scheduledAt?: number): Promise<void> => {
    const t0 = scheduledAt ?? performance.now();
    try {
      const status = await post(agent, base, next(i));
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status >= 300) failures += 1;
    } catch {
      failures += 1;
      statuses.error = (statuses.error ?? 0) + 1;
    }
    latencies.push(performance.now() - t0);
  };

  if (options.ratePerSecond) {
    const interval = 1000 / options.ratePerSecond;
    const inflight = new Set<Promise<void>>();
    for (let i = 0; i < options.total; i++) {
      const at = started + i * interval;
      const wait = at - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const p = one(i, at).finally(() => inflight.delete(p));
      inflight.add(p);
    }
    await Promise.all(inflight);
  } else {
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (issued < options.total) await one(issued++);
      }),
    );
  }
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: options.total,
    failures,
    seconds,
    rate: options.total / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    statuses,
  };
}
