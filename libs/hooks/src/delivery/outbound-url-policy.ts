import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode } from '@app/api';
import { SettingsReader } from '@app/settings';
import { checkOutbound, normalizeAddress, OutboundDecision, OutboundSettings, Resolver, systemResolver } from './outbound-policy';

/** How long a delivery reuses a decision that resolved a host name. */
export const DECISION_TTL_MS = 1_000;
const MAX_DECISIONS = 1000;

const isAddressLiteral = (hostname: string): boolean => normalizeAddress(hostname.startsWith('[') ? hostname.slice(1, -1) : hostname) !== null;

/**
 * Where system hooks may connect, under the instance's settings
 * (`allow_local_requests_from_system_hooks`, `outbound_local_requests_whitelist`,
 * `dns_rebinding_protection_enabled`): checked when a hook URL is saved and again at every
 * delivery (a host name may resolve elsewhere by then).
 */
@Injectable()
export class OutboundUrlPolicy {
  /** Replaced by unit tests with a resolver that answers the address under test. */
  resolver: Resolver = systemResolver;
  private readonly decisions = new Map<string, { settings: object; resolver: Resolver; decision: OutboundDecision; expiresAt: number }>();

  constructor(private readonly settings: SettingsReader) {}

  async outboundSettings(): Promise<OutboundSettings> {
    const settings = await this.settings.get();
    return {
      allowLocal: settings.boolean('allow_local_requests_from_system_hooks'),
      whitelist: settings.strings('outbound_local_requests_whitelist'),
      dnsRebindingProtection: settings.boolean('dns_rebinding_protection_enabled'),
    };
  }

  async check(url: URL): Promise<OutboundDecision> {
    return checkOutbound(url, await this.outboundSettings(), this.resolver);
  }

  /**
   * `check` for deliveries, which ask about the same few URLs thousands of times a second: a
   * decision is reused while the settings it was made under are the current ones (the settings
   * reader's cached copy, replaced at every change and every few seconds) and, when it depended
   * on resolving a host name, for at most `DECISION_TTL_MS` (then the name is resolved and
   * checked again, and with DNS rebinding protection the connection still goes to the checked
   * address). A resolution failure is never reused.
   */
  async checkDelivery(url: URL): Promise<OutboundDecision> {
    const settings = await this.settings.get();
    const key = url.href;
    const cached = this.decisions.get(key);
    if (cached && cached.settings === settings && cached.resolver === this.resolver && cached.expiresAt > Date.now()) return cached.decision;
    const outbound = {
      allowLocal: settings.boolean('allow_local_requests_from_system_hooks'),
      whitelist: settings.strings('outbound_local_requests_whitelist'),
      dnsRebindingProtection: settings.boolean('dns_rebinding_protection_enabled'),
    };
    const decision = await checkOutbound(url, outbound, this.resolver);
    if (!decision.allowed && decision.retryable) return decision;
    const literal = isAddressLiteral(url.hostname);
    if (this.decisions.size >= MAX_DECISIONS) this.decisions.clear();
    this.decisions.set(key, {
      settings,
      resolver: this.resolver,
      decision,
      expiresAt: outbound.allowLocal || literal ? Infinity : Date.now() + DECISION_TTL_MS,
    });
    return decision;
  }

  /**
   * A hook URL the rules refuse for good is not saved: 422 `{"error":"Invalid url given"}`, as
   * GitLab answers a hook whose URL fails its URL blocker. A host name that does not resolve
   * now is accepted (it may resolve later; the delivery checks again).
   */
  async assertHookUrlAllowed(url: string): Promise<void> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return; // the URL's form is judged by `hookUrlProblem`
    }
    const decision = await this.check(parsed);
    if (!decision.allowed && !decision.retryable) throw new DomainError(ErrorCode.UNPROCESSABLE, 'Invalid url given', { errorKey: true });
  }
}
