import { DomainError } from '@app/api';
import type { SettingsReader } from '@app/settings';
import type { Resolver } from './outbound-policy';
import { OutboundUrlPolicy } from './outbound-url-policy';

/** Settings as the reader gives them; a resolver that answers the address under test (no traffic anywhere). */
function policyWith(values: Record<string, unknown>, addresses: Record<string, string[]>): OutboundUrlPolicy {
  const reader = {
    get: async () => ({
      boolean: (key: string) => Boolean(values[key]),
      strings: (key: string) => (values[key] as string[] | undefined) ?? [],
    }),
  } as unknown as SettingsReader;
  const sut = new OutboundUrlPolicy(reader);
  const resolver: Resolver = async (hostname) => {
    const found = addresses[hostname];
    if (!found) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  sut.resolver = resolver;
  return sut;
}

const refused = { allow_local_requests_from_system_hooks: false, dns_rebinding_protection_enabled: true };
const dns = { 'nat64.example': ['64:ff9b::a00:5'], 'public.example': ['93.184.216.34'], 'inside.example': ['10.0.0.5'] };

describe(OutboundUrlPolicy.name, () => {
  it('refuses a hook URL whose host resolves to a local or special address with 422 "Invalid url given"', async () => {
    const sut = policyWith(refused, dns);
    for (const url of ['http://nat64.example/hook', 'http://inside.example/hook', 'http://[::10.0.0.5]/hook']) {
      const error = await sut.assertHookUrlAllowed(url).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).message).toBe('Invalid url given');
    }
  });

  it('accepts public hosts, hosts that do not resolve yet, and local ones when the settings allow them', async () => {
    await expect(policyWith(refused, dns).assertHookUrlAllowed('https://public.example/hook')).resolves.toBeUndefined();
    await expect(policyWith(refused, dns).assertHookUrlAllowed('https://later.example/hook')).resolves.toBeUndefined();
    await expect(policyWith({ allow_local_requests_from_system_hooks: true }, dns).assertHookUrlAllowed('http://inside.example/hook')).resolves.toBeUndefined();
    await expect(
      policyWith({ ...refused, outbound_local_requests_whitelist: ['10.0.0.0/8'] }, dns).assertHookUrlAllowed('http://inside.example/hook'),
    ).resolves.toBeUndefined();
  });

  describe('checkDelivery', () => {
    /** A policy whose settings snapshot can be replaced, with a resolver that counts its calls and answers `answers[hostname]`. */
    function countingPolicy(values: Record<string, unknown>, answers: Record<string, string[]>) {
      let snapshot = { boolean: (key: string) => Boolean(values[key]), strings: (key: string) => (values[key] as string[] | undefined) ?? [] };
      const reader = { get: async () => snapshot } as unknown as SettingsReader;
      const sut = new OutboundUrlPolicy(reader);
      const calls: string[] = [];
      sut.resolver = async (hostname) => {
        calls.push(hostname);
        const found = answers[hostname];
        if (!found) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
        return found.map((address) => ({ address, family: 4 as const }));
      };
      const replaceSettings = (next: Record<string, unknown>) => {
        snapshot = { boolean: (key: string) => Boolean(next[key]), strings: (key: string) => (next[key] as string[] | undefined) ?? [] };
      };
      return { sut, calls, replaceSettings };
    }

    afterEach(() => jest.useRealTimers());

    it('reuses a decision that resolved a host name for a second, then resolves and checks again (a name moving to a local address is refused)', async () => {
      jest.useFakeTimers({ now: new Date('2026-01-31T12:00:00Z'), doNotFake: ['nextTick', 'setImmediate'] });
      const answers: Record<string, string[]> = { 'hooks.example': ['93.184.216.34'] };
      const { sut, calls } = countingPolicy(refused, answers);
      const url = new URL('https://hooks.example/hook');
      await expect(sut.checkDelivery(url)).resolves.toEqual({ allowed: true, pinned: { address: '93.184.216.34', family: 4 } });
      answers['hooks.example'] = ['127.0.0.1'];
      await expect(sut.checkDelivery(url)).resolves.toMatchObject({ allowed: true });
      expect(calls).toHaveLength(1);
      jest.setSystemTime(new Date('2026-01-31T12:00:01.001Z'));
      await expect(sut.checkDelivery(url)).resolves.toMatchObject({ allowed: false, reason: 'Requests to localhost are not allowed', retryable: false });
      expect(calls).toHaveLength(2);
    });

    it('never reuses a resolution failure, and decides again under new settings', async () => {
      const answers: Record<string, string[]> = {};
      const { sut, calls, replaceSettings } = countingPolicy(refused, answers);
      const url = new URL('http://later.example/hook');
      await expect(sut.checkDelivery(url)).resolves.toMatchObject({ allowed: false, retryable: true });
      answers['later.example'] = ['10.0.0.5'];
      await expect(sut.checkDelivery(url)).resolves.toMatchObject({ allowed: false, reason: 'Requests to the local network are not allowed' });
      expect(calls).toHaveLength(2);
      const literal = new URL('http://10.0.0.5/hook');
      await expect(sut.checkDelivery(literal)).resolves.toMatchObject({ allowed: false });
      replaceSettings({ ...refused, outbound_local_requests_whitelist: ['10.0.0.0/8'] });
      await expect(sut.checkDelivery(literal)).resolves.toEqual({ allowed: true, pinned: null });
      await expect(sut.checkDelivery(url)).resolves.toMatchObject({ allowed: true });
    });
  });
});
