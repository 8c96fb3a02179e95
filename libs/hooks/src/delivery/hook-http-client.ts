import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Agent, Dispatcher, request } from 'undici';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './outbound-policy';

export { HOOK_USER_AGENT } from './hook-signature';

/** How long a delivery may take, connection to last byte (default of `HOOK_TIMEOUT_MS`). */
export const HOOK_TIMEOUT_MS = 10_000;
/** The part of a receiver's answer kept in the delivery log. */
export const MAX_RESPONSE_BYTES = 8 * 1024;
/** Read (and dropped) past the kept part so the connection can be reused; beyond, it is closed. */
const MAX_DRAINED_BYTES = 1024 * 1024;
const MAX_PINNED_AGENTS = 256;

export interface HookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  verifyTls: boolean;
  timeoutMs?: number;
  /** Connect to this address instead of resolving the host (DNS rebinding protection). */
  pinned?: ResolvedAddress | null;
}

interface Answered {
  status: number;
  headers: Record<string, string>;
  /** At most `MAX_RESPONSE_BYTES`. */
  body: string;
  durationMs: number;
}

export type HookResponse = ({ ok: true } & Answered) | ({ ok: false; error: string } & (Answered | { status: null; headers: null; body: null; durationMs: number }));

/**
 * POSTs one JSON delivery to a hook (undici, keep-alive connections per origin). Redirects
 * are not followed (a 3xx is a failure), the whole exchange is bounded by the timeout, and TLS
 * certificates are verified unless the hook turned verification off. Never throws: the
 * outcome is the answer.
 */
@Injectable()
export class HookHttpClient implements OnApplicationShutdown {
  private readonly verifying = new Agent({ connect: { rejectUnauthorized: true }, keepAliveTimeout: 4_000 });
  private readonly trusting = new Agent({ connect: { rejectUnauthorized: false }, keepAliveTimeout: 4_000 });
  /** Agents that always connect to one checked address, by `address|verify`. */
  private readonly pinnedAgents = new Map<string, Agent>();

  async post(req: HookRequest): Promise<HookResponse> {
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return { ok: false, status: null, headers: null, body: null, error: 'invalid url', durationMs: 0 };
    }
    const headers: Record<string, string> = { ...req.headers };
    if (url.username || url.password) {
      headers.Authorization = `Basic ${Buffer.from(`${safeDecode(url.username)}:${safeDecode(url.password)}`).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    const timeoutMs = req.timeoutMs ?? HOOK_TIMEOUT_MS;
    try {
      const response = await request(url, {
        method: 'POST',
        headers,
        body: req.body,
        dispatcher: this.dispatcherFor(req.verifyTls, req.pinned ?? null),
        signal: AbortSignal.timeout(timeoutMs),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const body = await readLimited(response.body);
      const answered: Answered = { status: response.statusCode, headers: flattenHeaders(response.headers), body, durationMs: elapsed() };
      if (response.statusCode >= 200 && response.statusCode < 300) return { ok: true, ...answered };
      return { ok: false, error: `HTTP ${response.statusCode}`, ...answered };
    } catch (error) {
      return { ok: false, status: null, headers: null, body: null, error: describe(error as Error, timeoutMs), durationMs: elapsed() };
    }
  }

  /** Late in the shutdown: the delivery worker has finished its attempts by then. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.verifying, this.trusting, ...this.pinnedAgents.values()].map((agent) => agent.close().catch(() => undefined)));
    this.pinnedAgents.clear();
  }

  private dispatcherFor(verifyTls: boolean, pinned: ResolvedAddress | null): Dispatcher {
    if (!pinned) return verifyTls ? this.verifying : this.trusting;
    const key = `${pinned.address}|${verifyTls}`;
    let agent = this.pinnedAgents.get(key);
    if (!agent) {
      if (this.pinnedAgents.size >= MAX_PINNED_AGENTS) {
        const [oldestKey, oldest] = this.pinnedAgents.entries().next().value as [string, Agent];
        this.pinnedAgents.delete(oldestKey);
        void oldest.close().catch(() => undefined);
      }
      const lookup: LookupFunction = (_hostname, options, callback) => {
        if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address: pinned.address, family: pinned.family }]);
        else callback(null, pinned.address, pinned.family);
      };
      agent = new Agent({ connect: { rejectUnauthorized: verifyTls, lookup }, keepAliveTimeout: 4_000 });
      this.pinnedAgents.set(key, agent);
    }
    return agent;
  }
}

async function readLimited(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (keptBytes < MAX_RESPONSE_BYTES) {
      kept.push(chunk);
      keptBytes += chunk.length;
    }
    if (total > MAX_DRAINED_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(kept).subarray(0, MAX_RESPONSE_BYTES).toString('utf8');
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function describe(error: Error, timeoutMs: number): string {
  const cause = (error as { cause?: Error }).cause;
  if (error.name === 'AbortError' || error.name === 'TimeoutError' || /Timeout/.test((error as NodeJS.ErrnoException).code ?? '')) return `timed out after ${timeoutMs} ms`;
  const code = (error as NodeJS.ErrnoException).code ?? (cause as NodeJS.ErrnoException | undefined)?.code;
  const message = cause?.message && cause.message !== error.message ? `${error.message}: ${cause.message}` : error.message;
  return code ? `${code}: ${message}` : message;
}
