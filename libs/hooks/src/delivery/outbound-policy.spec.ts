import { checkOutbound, isWhitelisted, normalizeAddress, OutboundSettings, parseWhitelistEntry, Resolver } from './outbound-policy';

const strict: OutboundSettings = { allowLocal: false, whitelist: [], dnsRebindingProtection: true };
const resolverOf =
  (table: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
const dns = resolverOf({
  'public.example': ['93.184.216.34'],
  'evil.example': ['93.184.216.34', '10.1.2.3'],
  'rebind.example': ['127.0.0.1'],
  'mapped.example': ['::ffff:192.168.1.10'],
  'v6local.example': ['fd12:3456::1'],
  'hook.internal': ['10.0.0.7'],
  'a.corp.internal': ['10.9.9.9'],
});

describe(checkOutbound.name, () => {
  it.each([
    ['http://127.0.0.1/', 'Requests to localhost are not allowed'],
    ['http://127.1/', 'Requests to localhost are not allowed'],
    ['http://2130706433/', 'Requests to localhost are not allowed'],
    ['http://0x7f000001/', 'Requests to localhost are not allowed'],
    ['http://0177.0.0.1/', 'Requests to localhost are not allowed'],
    ['http://[::1]:8080/', 'Requests to localhost are not allowed'],
    ['http://[::ffff:127.0.0.1]/', 'Requests to localhost are not allowed'],
    ['http://[::ffff:7f00:1]/', 'Requests to localhost are not allowed'],
    ['http://0.0.0.0/', 'Requests to the local network are not allowed'],
    ['http://0/', 'Requests to the local network are not allowed'],
    ['http://[::]/', 'Requests to the local network are not allowed'],
    ['http://10.0.0.1/', 'Requests to the local network are not allowed'],
    ['http://172.16.5.4/', 'Requests to the local network are not allowed'],
    ['http://192.168.0.1/', 'Requests to the local network are not allowed'],
    ['http://169.254.169.254/latest/meta-data', 'Requests to the local network are not allowed'],
    ['http://100.64.0.1/', 'Requests to the local network are not allowed'],
    ['http://[fe80::1]/', 'Requests to the local network are not allowed'],
    ['http://[fd00::1]/', 'Requests to the local network are not allowed'],
    ['http://[::ffff:10.0.0.1]/', 'Requests to the local network are not allowed'],
    ['http://rebind.example/', 'Requests to localhost are not allowed'],
    ['http://evil.example/', 'Requests to the local network are not allowed'],
    ['http://mapped.example/', 'Requests to the local network are not allowed'],
    ['http://v6local.example/', 'Requests to the local network are not allowed'],
  ])('refuses %s', async (url, reason) => {
    await expect(checkOutbound(new URL(url), strict, dns)).resolves.toEqual({ allowed: false, reason, retryable: false });
  });

  it('allows public addresses and pins the checked address of a host name', async () => {
    await expect(checkOutbound(new URL('http://93.184.216.34/'), strict, dns)).resolves.toEqual({ allowed: true, pinned: null });
    await expect(checkOutbound(new URL('https://public.example/hook'), strict, dns)).resolves.toEqual({ allowed: true, pinned: { address: '93.184.216.34', family: 4 } });
    await expect(checkOutbound(new URL('https://public.example/hook'), { ...strict, dnsRebindingProtection: false }, dns)).resolves.toEqual({ allowed: true, pinned: null });
  });

  it('allows everything when local requests are allowed (the default for system hooks)', async () => {
    await expect(checkOutbound(new URL('http://127.0.0.1:9/'), { ...strict, allowLocal: true }, dns)).resolves.toEqual({ allowed: true, pinned: null });
  });

  it('reports an unresolvable host as retryable', async () => {
    await expect(checkOutbound(new URL('http://nowhere.example/'), strict, dns)).resolves.toMatchObject({ allowed: false, retryable: true, reason: expect.stringContaining('ENOTFOUND') });
  });

  it.each([
    ['127.0.0.1', 'http://127.0.0.1:8080/'],
    ['127.0.0.0/8', 'http://127.1/'],
    ['127.0.0.1:8080', 'http://127.0.0.1:8080/'],
    ['[::1]:8080', 'http://[::1]:8080/'],
    ['::1', 'http://[::1]/'],
    ['fd00::/8', 'http://v6local.example/'],
    ['hook.internal', 'http://hook.internal/'],
    ['hook.internal:80', 'http://hook.internal/'],
    ['*.corp.internal', 'http://a.corp.internal/'],
    ['192.168.0.0/16', 'http://mapped.example/'],
  ])('lets the whitelist entry %s through for %s', async (entry, url) => {
    await expect(checkOutbound(new URL(url), { ...strict, whitelist: [entry] }, dns)).resolves.toMatchObject({ allowed: true });
  });

  it.each([
    ['127.0.0.1:8080', 'http://127.0.0.1:9090/'],
    ['[::1]:8080', 'http://127.0.0.1:8080/'],
    ['10.0.0.0/8', 'http://127.0.0.1/'],
    ['hook.internal', 'http://a.corp.internal/'],
    ['*.corp.internal', 'http://corp.internal.evil/'],
    ['hook.internal:8080', 'http://hook.internal/'],
  ])('does not let the whitelist entry %s through for %s', async (entry, url) => {
    await expect(checkOutbound(new URL(url), { ...strict, whitelist: [entry] }, resolverOf({ 'hook.internal': ['10.0.0.7'], 'a.corp.internal': ['10.9.9.9'], 'corp.internal.evil': ['10.1.1.1'] }))).resolves.toMatchObject({ allowed: false });
  });
});

describe(parseWhitelistEntry.name, () => {
  it('ignores unusable entries', () => {
    expect(parseWhitelistEntry('')).toBeNull();
    expect(parseWhitelistEntry('not a host!')).toBeNull();
    expect(parseWhitelistEntry('10.0.0.0/99')).toBeNull();
  });

  it('matches IPv4-mapped addresses as IPv4', () => {
    const entry = parseWhitelistEntry('127.0.0.1')!;
    expect(isWhitelisted([entry], 'x', normalizeAddress('::ffff:127.0.0.1')!, 80)).toBe(true);
  });
});
