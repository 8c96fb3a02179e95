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
  'nat64.example': ['64:ff9b::a00:1'],
  'nat64-public.example': ['64:ff9b::5db8:d822'],
  'sixtofour.example': ['2002:c0a8:101::1'],
  'teredo.example': ['2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  'compat.example': ['::7f00:1'],
  'multicast.example': ['239.1.2.3'],
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
    // IPv4 embedded in IPv6: judged as the IPv4 address.
    ['http://[::127.0.0.1]/', 'Requests to localhost are not allowed'],
    ['http://[::7f00:1]/', 'Requests to localhost are not allowed'],
    ['http://[::10.0.0.1]/', 'Requests to the local network are not allowed'],
    ['http://compat.example/', 'Requests to localhost are not allowed'],
    // Translation and tunnel prefixes, and ranges that are no unicast host.
    ['http://[64:ff9b::7f00:1]/', 'Requests to a special-purpose address are not allowed'],
    ['http://[64:ff9b::5db8:d822]/', 'Requests to a special-purpose address are not allowed'],
    ['http://nat64.example/', 'Requests to a special-purpose address are not allowed'],
    ['http://nat64-public.example/', 'Requests to a special-purpose address are not allowed'],
    ['http://[2002:7f00:1::1]/', 'Requests to a special-purpose address are not allowed'],
    ['http://sixtofour.example/', 'Requests to a special-purpose address are not allowed'],
    ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'Requests to a special-purpose address are not allowed'],
    ['http://teredo.example/', 'Requests to a special-purpose address are not allowed'],
    ['http://224.0.0.1/', 'Requests to a special-purpose address are not allowed'],
    ['http://239.255.255.250/', 'Requests to a special-purpose address are not allowed'],
    ['http://multicast.example/', 'Requests to a special-purpose address are not allowed'],
    ['http://[ff02::1]/', 'Requests to a special-purpose address are not allowed'],
    ['http://[ff0e::1]/', 'Requests to a special-purpose address are not allowed'],
    ['http://240.0.0.1/', 'Requests to a special-purpose address are not allowed'],
    ['http://255.255.255.255/', 'Requests to a special-purpose address are not allowed'],
    ['http://198.18.0.1/', 'Requests to a special-purpose address are not allowed'],
    ['http://198.19.255.254/', 'Requests to a special-purpose address are not allowed'],
  ])('refuses %s', async (url, reason) => {
    await expect(checkOutbound(new URL(url), strict, dns)).resolves.toEqual({ allowed: false, reason, retryable: false });
  });

  it('allows public addresses and pins the checked address of a host name', async () => {
    await expect(checkOutbound(new URL('http://93.184.216.34/'), strict, dns)).resolves.toEqual({ allowed: true, pinned: null });
    await expect(checkOutbound(new URL('https://public.example/hook'), strict, dns)).resolves.toEqual({
      allowed: true,
      pinned: { address: '93.184.216.34', family: 4 },
    });
    await expect(checkOutbound(new URL('https://public.example/hook'), { ...strict, dnsRebindingProtection: false }, dns)).resolves.toEqual({
      allowed: true,
      pinned: null,
    });
  });

  it('refuses multicast and broadcast even when local requests are allowed (no HTTP server listens there)', async () => {
    for (const url of ['http://224.0.0.1/', 'http://[ff02::1]/', 'http://255.255.255.255/']) {
      await expect(checkOutbound(new URL(url), { ...strict, allowLocal: true }, dns)).resolves.toEqual({
        allowed: false,
        reason: 'Requests to a special-purpose address are not allowed',
        retryable: false,
      });
    }
  });

  it('allows the public neighbours of the special ranges', async () => {
    for (const url of ['http://198.17.255.254/', 'http://198.20.0.1/', 'http://223.255.255.254/', 'http://[2003::1]/']) {
      await expect(checkOutbound(new URL(url), strict, dns)).resolves.toEqual({ allowed: true, pinned: null });
    }
  });

  it('allows everything when local requests are allowed (the default for system hooks)', async () => {
    await expect(checkOutbound(new URL('http://127.0.0.1:9/'), { ...strict, allowLocal: true }, dns)).resolves.toEqual({ allowed: true, pinned: null });
  });

  it('reports an unresolvable host as retryable', async () => {
    await expect(checkOutbound(new URL('http://nowhere.example/'), strict, dns)).resolves.toMatchObject({
      allowed: false,
      retryable: true,
      reason: expect.stringContaining('ENOTFOUND'),
    });
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
    await expect(
      checkOutbound(
        new URL(url),
        { ...strict, whitelist: [entry] },
        resolverOf({ 'hook.internal': ['10.0.0.7'], 'a.corp.internal': ['10.9.9.9'], 'corp.internal.evil': ['10.1.1.1'] }),
      ),
    ).resolves.toMatchObject({ allowed: false });
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
