import { Injectable, OnApplicationShutdown, Optional } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { Agent, Dispatcher } from 'undici';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './outbound-policy';

export { HOOK_USER_AGENT } from './hook-signature';

/** How long a delivery may take, connection to last byte (default of `HOOK_TIMEOUT_MS`). */
export const HOOK_TIMEOUT_MS = 10_000;
/** The part of a receiver's answer kept in the delivery log. */
export const MAX_RESPONSE_BYTES = 8 * 1024;
/** Read (and dropped) past the kept part so the connection can be reused; beyond, it is closed. */
const MAX_DRAINED_BYTES = 1024 * 1024;
const MAX_OWN_AGENTS = 256;

export interface HookRequest {
  url: string;
  headers: Record<string, string>;
  /** A Buffer is sent as is (an event's body encoded once for all its hooks). */
  body: string | Buffer;
  verifyTls: boolean;
  timeoutMs?: number;
  /** Connect to this address instead of resolving the host (DNS rebinding protection). */
  pinned?: ResolvedAddress | null;
  /** The hook: with pipelining on, each hook has connections of its own (a slow hook holds up only its own requests). */
  hookId?: number;
}

interface Answered {
  status: number;
  headers: Record<string, string>;
  /** At most `MAX_RESPONSE_BYTES`. */
  body: string;
  durationMs: number;
}

export type HookResponse =
  ({ ok: true } & Answered) | ({ ok: false; error: string } & (Answered | { status: null; headers: null; body: null; durationMs: number }));

/** A hook URL as a request needs it: parsed once, not at every delivery. */
interface Target {
  origin: string;
  path: string;
  /** `Basic ...` from the URL's credentials, or null. */
  authorization: string | null;
}
const MAX_TARGETS = 1000;

/**
 * POSTs one JSON delivery to a hook (undici, keep-alive connections per origin). Redirects
 * are not followed (a 3xx is a failure), the whole exchange is bounded by the timeout, and TLS
 * certificates are verified unless the hook turned verification off. Never throws: the
 * outcome is the answer.
 *
 * The request goes straight to the dispatcher with a handler of its own (no response stream,
 * no abort signal, one timer): at thousands of deliveries a second, undici's `request()` and
 * `AbortSignal.timeout` cost the gateway more than the rest of the attempt.
 */
@Injectable()
export class HookHttpClient implements OnApplicationShutdown {
  /** `HOOK_HTTP_PIPELINING`: 1, no pipelining (a connection carries one request at a time). */
  private readonly pipelining: number;
  private readonly verifying: Agent;
  private readonly trusting: Agent;
  /** Agents of one hook (pipelining on) and/or that always connect to one checked address, by `hook|address|verify`. */
  private readonly ownAgents = new Map<string, Agent>();
  private readonly targets = new Map<string, Target | null>();

  constructor(@Optional() config?: AppConfig) {
    this.pipelining = config?.hooks.pipelining ?? 1;
    this.verifying = this.agent({ rejectUnauthorized: true });
    this.trusting = this.agent({ rejectUnauthorized: false });
  }

  post(req: HookRequest): Promise<HookResponse> {
    const started = performance.now();
    const target = this.targetOf(req.url);
    if (!target) return Promise.resolve({ ok: false, status: null, headers: null, body: null, error: 'invalid url', durationMs: 0 });
    const headers = target.authorization ? { ...req.headers, Authorization: target.authorization } : req.headers;
    const timeoutMs = req.timeoutMs ?? HOOK_TIMEOUT_MS;
    return new Promise<HookResponse>((resolve) => {
      const handler = new DeliveryHandler(resolve, started, timeoutMs);
      try {
        this.dispatcherFor(req.verifyTls, req.pinned ?? null, this.pipelining > 1 ? req.hookId : undefined).dispatch(
          {
            origin: target.origin,
            path: target.path,
            method: 'POST',
            headers,
            body: req.body,
            headersTimeout: timeoutMs,
            bodyTimeout: timeoutMs,
            // undici pipelines only requests it may send again: with pipelining on, a request sent behind
            // one whose connection broke is sent again on another (same Idempotency-Key).
            ...(this.pipelining > 1 ? { blocking: false, idempotent: true } : {}),
          },
          handler,
        );
      } catch (error) {
        handler.onResponseError(null, error as Error);
      }
    });
  }

  /** Late in the shutdown: the delivery worker has finished its attempts by then. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.verifying, this.trusting, ...this.ownAgents.values()].map((agent) => agent.close().catch(() => undefined)));
    this.ownAgents.clear();
  }

  /** Keep-alive connections per origin, as many as needed (each carrying up to `pipelining` requests at once). */
  private agent(connect: { rejectUnauthorized: boolean; lookup?: LookupFunction }): Agent {
    return new Agent({ connect, keepAliveTimeout: 4_000, pipelining: this.pipelining });
  }

  private targetOf(url: string): Target | null {
    let target = this.targets.get(url);
    if (target === undefined) {
      target = parseTarget(url);
      if (this.targets.size >= MAX_TARGETS) this.targets.clear();
      this.targets.set(url, target);
    }
    return target;
  }

  private dispatcherFor(verifyTls: boolean, pinned: ResolvedAddress | null, hookId: number | undefined): Dispatcher {
    if (!pinned && hookId === undefined) return verifyTls ? this.verifying : this.trusting;
    const key = `${hookId ?? ''}|${pinned?.address ?? ''}|${verifyTls}`;
    let agent = this.ownAgents.get(key);
    if (!agent) {
      if (this.ownAgents.size >= MAX_OWN_AGENTS) {
        // Closing lets its requests in flight finish.
        const [oldestKey, oldest] = this.ownAgents.entries().next().value as [string, Agent];
        this.ownAgents.delete(oldestKey);
        void oldest.close().catch(() => undefined);
      }
      const lookup: LookupFunction | undefined = pinned
        ? (_hostname, options, callback) => {
            if ((options as { all?: boolean }).all)
              (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
                { address: pinned.address, family: pinned.family },
              ]);
            else callback(null, pinned.address, pinned.family);
          }
        : undefined;
      agent = this.agent({ rejectUnauthorized: verifyTls, ...(lookup ? { lookup } : {}) });
      this.ownAgents.set(key, agent);
    }
    return agent;
  }
}

function parseTarget(url: string): Target | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const authorization =
    parsed.username || parsed.password ? `Basic ${Buffer.from(`${safeDecode(parsed.username)}:${safeDecode(parsed.password)}`).toString('base64')}` : null;
  return { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}`, authorization };
}

class TimedOut extends Error {
  override name = 'TimeoutError';
}

/**
 * undici's handler of one delivery: keeps the first `MAX_RESPONSE_BYTES` of the answer, reads
 * (and drops) the rest up to `MAX_DRAINED_BYTES` so that the connection can be reused, then
 * closes it. Settles exactly once: at the end of the answer, at an error, or at the deadline.
 */
class DeliveryHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private done = false;
  private status = 0;
  private headers: Record<string, string> = {};
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private total = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly resolve: (response: HookResponse) => void,
    private readonly started: number,
    private readonly timeoutMs: number,
  ) {
    this.timer = setTimeout(() => this.onTimeout(), timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    // Timed out while waiting for a connection: give up as soon as undici starts it.
    if (this.done) controller.abort(new TimedOut());
    else this.controller = controller;
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    if (statusCode < 200) return; // 1xx informational
    this.status = statusCode;
    this.headers = flattenHeaders(headers);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.done) return;
    this.total += chunk.length;
    if (this.keptBytes < MAX_RESPONSE_BYTES) {
      this.kept.push(chunk);
      this.keptBytes += chunk.length;
    }
    if (this.total > MAX_DRAINED_BYTES) {
      this.answer();
      controller.abort(new Error('response too large'));
    }
  }

  onResponseEnd(): void {
    this.answer();
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, error: Error): void {
    this.settle({ ok: false, status: null, headers: null, body: null, error: describe(error, this.timeoutMs), durationMs: this.elapsed() });
  }

  private onTimeout(): void {
    if (this.done) return;
    this.settle({ ok: false, status: null, headers: null, body: null, error: `timed out after ${this.timeoutMs} ms`, durationMs: this.elapsed() });
    this.controller?.abort(new TimedOut());
  }

  private answer(): void {
    if (this.done) return;
    const body = this.kept.length === 1 ? this.kept[0] : Buffer.concat(this.kept);
    const answered: Answered = {
      status: this.status,
      headers: this.headers,
      body: body.subarray(0, MAX_RESPONSE_BYTES).toString('utf8'),
      durationMs: this.elapsed(),
    };
    if (this.status >= 200 && this.status < 300) this.settle({ ok: true, ...answered });
    else this.settle({ ok: false, error: `HTTP ${this.status}`, ...answered });
  }

  private settle(response: HookResponse): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    this.resolve(response);
  }

  private elapsed(): number {
    return Math.round(performance.now() - this.started);
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  // undici's object as it is when every header came once (the usual answer); else a flat copy.
  let flat = true;
  for (const name in headers) if (typeof headers[name] !== 'string') flat = false;
  if (flat) return headers as Record<string, string>;
  const copy: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) copy[name] = Array.isArray(value) ? value.join(', ') : value;
  return copy;
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
  if (error.name === 'AbortError' || error.name === 'TimeoutError' || /Timeout/.test((error as NodeJS.ErrnoException).code ?? ''))
    return `timed out after ${timeoutMs} ms`;
  const code = (error as NodeJS.ErrnoException).code ?? (cause as NodeJS.ErrnoException | undefined)?.code;
  const message = cause?.message && cause.message !== error.message ? `${error.message}: ${cause.message}` : error.message;
  return code ? `${code}: ${message}` : message;
}
