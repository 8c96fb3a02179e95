import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode } from '@app/api';
import { SettingsReader } from '@app/settings';
import { checkOutbound, OutboundDecision, OutboundSettings, Resolver, systemResolver } from './outbound-policy';

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
