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
      const error = await sut.assertHookUrlAllowed(url).then(() => null, (e: unknown) => e);
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
});
