import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { randomUUID } from 'node:crypto';
import type { HookDeliveryStatus } from '../entities/hook-delivery.entity';
import type { SystemHookEntity } from '../entities/system-hook.entity';
import { HookTokenCipher } from '../core/hook-token-cipher';
import { redactHookUrl } from '../core/hook-url';
import { deliveryStatusOf, HookDeliveryLog, NewHookDelivery } from './hook-delivery-log';
import { HookHealthService } from '../core/hook-health';
import { HookHttpClient } from './hook-http-client';
import { HookMetrics } from './hook-metrics';
import { deliveryHeaders, redactHeaders } from './hook-signature';
import { OutboundUrlPolicy } from './outbound-url-policy';

export interface DeliveryAttempt {
  /** The hook with its encrypted token. */
  hook: SystemHookEntity;
  eventId: string | null;
  trigger: string;
  body: string;
  /** `body` as UTF-8 bytes, encoded once for every hook of the event (else encoded per attempt). */
  bodyBytes?: Buffer;
  idempotencyKey: string;
  occurredAt: string | null;
  chainId: string;
  chainDepth: number;
  /** 1-based number of this attempt (the log's `attempt`). */
  attempt: number;
  /** The body is the event's, stored once in `system_hook_events`: the log row references it instead of repeating it. */
  bodyStored?: boolean;
}

export interface DeliveryOutcome {
  ok: boolean;
  status: HookDeliveryStatus;
  error: string | null;
  /** Whether trying again may succeed (false: refused by the outbound policy, undecryptable token). */
  retryable: boolean;
  /** A 429 or 503 answer's `Retry-After`, in milliseconds. */
  retryAfterMs: number | null;
}

/** Longest `Retry-After` honoured. */
const MAX_RETRY_AFTER_MS = 86_400_000;

/** `Retry-After` as seconds or an HTTP date, in milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(MAX_RETRY_AFTER_MS, Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, date - now));
}

/**
 * One attempt of one delivery: the outbound policy, the signed POST, the delivery log row,
 * the hook's health and the metrics. Used by the delivery worker, resends and test deliveries.
 */
@Injectable()
export class HookDeliverer {
  private readonly logger = new Logger(HookDeliverer.name);
  /** Decrypted tokens by ciphertext (AES-GCM per delivery would cost more than the POST). */
  private readonly tokens = new Map<string, string>();
  private readonly targets = new Map<string, { parsed: URL | null; redacted: string }>();

  constructor(
    private readonly config: AppConfig,
    private readonly outbound: OutboundUrlPolicy,
    private readonly cipher: HookTokenCipher,
    private readonly http: HookHttpClient,
    private readonly log: HookDeliveryLog,
    private readonly health: HookHealthService,
    private readonly metrics: HookMetrics,
  ) {}

  async deliver(input: DeliveryAttempt): Promise<DeliveryOutcome> {
    const { hook } = input;
    const webhookUuid = randomUUID();
    const target = this.targetOf(hook.url);
    const body = input.bodyBytes ?? input.body;
    const headers = (token: string | null) =>
      deliveryHeaders({
        body,
        token,
        idempotencyKey: input.idempotencyKey,
        webhookUuid,
        instanceUrl: this.config.http.externalUrl,
        chainId: input.chainId,
        chainDepth: input.chainDepth,
        timestamp: Math.floor(Date.now() / 1000),
      });
    // The attempt's log row, completed below (built once: a burst makes thousands a second).
    const row: NewHookDelivery = {
      hookId: hook.id,
      eventId: input.eventId,
      trigger: input.trigger,
      url: target.redacted,
      requestHeaders: {},
      requestBody: input.bodyStored ? null : input.body,
      responseStatus: null,
      responseHeaders: null,
      responseBody: null,
      status: 'server_failure',
      error: null,
      durationMs: 0,
      idempotencyKey: input.idempotencyKey,
      webhookUuid: null,
      attempt: input.attempt,
      eventOccurredAt: input.occurredAt,
    };

    let token: string | null = null;
    if (hook.encryptedToken) {
      try {
        token = this.decrypt(hook.encryptedToken);
      } catch {
        // Never deliver without the token the receiver expects: the key must be restored or the token set again.
        row.requestHeaders = redactHeaders(headers(null));
        return this.finish(
          input,
          row,
          'server_failure',
          'the hook token cannot be decrypted (SETTINGS_ENCRYPTION_KEY changed?): set the token again',
          false,
          null,
        );
      }
    }
    const sent = headers(token);
    row.requestHeaders = redactHeaders(sent);
    row.webhookUuid = webhookUuid;

    if (!target.parsed) return this.finish(input, row, 'server_failure', 'invalid url', false, null);
    const decision = await this.outbound.checkDelivery(target.parsed);
    if (!decision.allowed) return this.finish(input, row, 'server_failure', `blocked: ${decision.reason}`, decision.retryable, null);

    const response = await this.http.post({
      url: hook.url,
      headers: sent,
      body,
      verifyTls: hook.enableSslVerification,
      timeoutMs: this.config.hooks.timeoutMs,
      pinned: decision.pinned,
      hookId: hook.id,
    });
    row.responseStatus = response.status;
    row.responseHeaders = response.headers;
    row.responseBody = response.body;
    row.durationMs = response.durationMs;
    const retryAfterMs = response.status === 429 || response.status === 503 ? parseRetryAfter(response.headers?.['retry-after']) : null;
    return this.finish(input, row, response.ok ? 'successful' : deliveryStatusOf(response.status), response.ok ? null : response.error, true, retryAfterMs);
  }

  /** The hook URL parsed (null: invalid) and as logged, computed once per URL rather than per attempt. */
  private targetOf(url: string): { parsed: URL | null; redacted: string } {
    let target = this.targets.get(url);
    if (!target) {
      let parsed: URL | null;
      try {
        parsed = new URL(url);
      } catch {
        parsed = null;
      }
      target = { parsed, redacted: redactHookUrl(url) };
      if (this.targets.size >= 1000) this.targets.clear();
      this.targets.set(url, target);
    }
    return target;
  }

  /** Logs an event the hook did not receive (disabled hook, loop protection). */
  async skip(input: DeliveryAttempt, reason: string): Promise<void> {
    const { hook } = input;
    await this.log.record({
      hookId: hook.id,
      eventId: input.eventId,
      trigger: input.trigger,
      url: this.targetOf(hook.url).redacted,
      requestHeaders: {},
      requestBody: input.bodyStored ? null : input.body,
      responseStatus: null,
      responseHeaders: null,
      responseBody: null,
      status: 'skipped',
      error: reason,
      durationMs: 0,
      idempotencyKey: input.idempotencyKey,
      webhookUuid: null,
      attempt: input.attempt,
      eventOccurredAt: input.occurredAt,
    });
    this.metrics.attempt('skipped', 0);
  }

  private async finish(
    input: DeliveryAttempt,
    row: NewHookDelivery,
    status: HookDeliveryStatus,
    error: string | null,
    retryable: boolean,
    retryAfterMs: number | null,
  ): Promise<DeliveryOutcome> {
    const ok = status === 'successful';
    row.status = status;
    row.error = error;
    const logged = this.log.record(row);
    // A success's log row is written behind (group commit; flushed at shutdown) so that the next
    // delivery does not wait for it; a failure's row is stored before the retry is scheduled.
    if (ok) logged.catch((e: unknown) => this.logger.error(`delivery log row of system hook ${input.hook.id} lost: ${(e as Error).message}`));
    else await logged;
    this.metrics.attempt(status, row.durationMs);
    const { hook } = input;
    if (ok) {
      this.metrics.delivered(input.occurredAt);
      if (hook.alertStatus !== 'executable' || hook.recentFailures !== 0 || hook.backoffCount !== 0) {
        await this.health.recordSuccess(hook.id);
        Object.assign(hook, { alertStatus: 'executable', disabledUntil: null, recentFailures: 0, backoffCount: 0 });
      }
    } else {
      const next = await this.health.recordFailure(hook.id);
      if (next) Object.assign(hook, next);
      this.logger.warn(`delivery of ${input.trigger} to system hook ${hook.id} (${row.url}) failed (attempt ${input.attempt}): ${error}`);
    }
    return { ok, status, error, retryable, retryAfterMs };
  }

  private decrypt(ciphertext: string): string {
    let token = this.tokens.get(ciphertext);
    if (token === undefined) {
      token = this.cipher.decrypt(ciphertext);
      if (this.tokens.size > 1000) this.tokens.clear();
      this.tokens.set(ciphertext, token);
    }
    return token;
  }
}
