import ipaddr from 'ipaddr.js';
import { lookup } from 'node:dns/promises';

/** The application settings that decide where a system hook may connect. */
export interface OutboundSettings {
  /** `allow_local_requests_from_system_hooks`. */
  allowLocal: boolean;
  /** `outbound_local_requests_whitelist`: IPs, CIDR ranges, host names (`*.` wildcards), each with an optional port. */
  whitelist: readonly string[];
  /** `dns_rebinding_protection_enabled`: connect to the very address that was checked. */
  dnsRebindingProtection: boolean;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type OutboundDecision =
  | { allowed: true; /** The address to connect to (DNS rebinding protection), or null: resolve normally. */ pinned: ResolvedAddress | null }
  | { allowed: false; reason: string; /** A resolution failure may pass later; a policy refusal will not. */ retryable: boolean };

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** All addresses of a host name, as the system resolver answers them. */
export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

/**
 * Ranges that are "local": loopback, RFC 1918 private, link-local, unique-local, the unspecified
 * addresses (`0.0.0.0/8`, `::`), carrier-grade NAT (shared address space), as GitLab's URL
 * blocker treats them. IPv4 addresses embedded in IPv6 (mapped `::ffff:a.b.c.d`, compatible
 * `::a.b.c.d`) are judged as their IPv4 address.
 */
const LOCAL_RANGES = new Set(['unspecified', 'loopback', 'private', 'linkLocal', 'uniqueLocal', 'carrierGradeNat', 'deprecatedSiteLocal']);

/**
 * Ranges where no ordinary unicast host can be reached: multicast (`224.0.0.0/4`, `ff00::/8`),
 * broadcast, reserved (`240.0.0.0/4`), benchmarking (`198.18.0.0/15`), documentation, and the
 * IPv6 translation and tunnel prefixes — NAT64 (`64:ff9b::/96`, `64:ff9b:1::/48`), 6to4
 * (`2002::/16`), Teredo (`2001::/32`) — through which a local IPv4 network can be reached.
 * Everything that is neither plain unicast nor local is special: a range that a future
 * `ipaddr.js` names is refused rather than let through.
 */
const ALWAYS_REFUSED = new Set(['multicast', 'broadcast']);

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** The address with IPv4-mapped (`::ffff:127.0.0.1`) and IPv4-compatible (`::127.0.0.1`) IPv6 unwrapped. */
export function normalizeAddress(text: string): Address | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (!ipaddr.isValid(bare)) return null;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
    // ::a.b.c.d (deprecated IPv4-compatible); `::` and `::1` are IPv6's own unspecified and loopback.
    const parts = v6.parts;
    if (parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || parts[7] > 1)) {
      return ipaddr.fromByteArray(v6.toByteArray().slice(12)) as ipaddr.IPv4;
    }
  }
  return parsed;
}

/** `loopback`, `local` (other local ranges), `special` (not a unicast host, see above) or null (a public address). */
export function localKind(address: Address): 'loopback' | 'local' | 'special' | null {
  const range = address.range();
  if (range === 'loopback') return 'loopback';
  if (LOCAL_RANGES.has(range)) return 'local';
  return range === 'unicast' ? null : 'special';
}

const REFUSALS = {
  loopback: 'Requests to localhost are not allowed',
  local: 'Requests to the local network are not allowed',
  special: 'Requests to a special-purpose address are not allowed',
} as const;

type WhitelistEntry =
  | { kind: 'address'; address: Address; port: number | null }
  | { kind: 'range'; range: [Address, number]; port: number | null }
  | { kind: 'host'; host: string; wildcard: boolean; port: number | null };

/** Parses one `outbound_local_requests_whitelist` entry; null when it is not usable. */
export function parseWhitelistEntry(raw: string): WhitelistEntry | null {
  const entry = raw.trim().toLowerCase();
  if (entry === '') return null;
  // [v6]:port or [v6]
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
  if (bracketed) {
    const address = normalizeAddress(bracketed[1]);
    return address ? { kind: 'address', address, port: bracketed[2] ? Number(bracketed[2]) : null } : null;
  }
  if (entry.includes('/')) {
    try {
      const [address, bits] = ipaddr.parseCIDR(entry);
      const normalized =
        address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
          ? ([(address as ipaddr.IPv6).toIPv4Address(), Math.max(0, bits - 96)] as [Address, number])
          : ([address, bits] as [Address, number]);
      return { kind: 'range', range: normalized, port: null };
    } catch {
      return null;
    }
  }
  const asAddress = normalizeAddress(entry);
  if (asAddress && (entry.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(entry))) return { kind: 'address', address: asAddress, port: null };
  const withPort = /^(.+):(\d{1,5})$/.exec(entry);
  const hostPart = withPort ? withPort[1] : entry;
  const port = withPort ? Number(withPort[2]) : null;
  if (ipaddr.IPv4.isValidFourPartDecimal(hostPart)) return { kind: 'address', address: ipaddr.parse(hostPart), port };
  if (!/^(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/.test(hostPart)) return null;
  const wildcard = hostPart.startsWith('*.');
  return { kind: 'host', host: (wildcard ? hostPart.slice(2) : hostPart).replace(/\.$/, ''), wildcard, port };
}

function sameAddress(a: Address, b: Address): boolean {
  return a.kind() === b.kind() && a.toNormalizedString() === b.toNormalizedString();
}

/** Whether the whitelist lets `hostname:port` (resolved to `address`) through. */
export function isWhitelisted(entries: readonly WhitelistEntry[], hostname: string, address: Address, port: number): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return entries.some((entry) => {
    if (entry.port !== null && entry.port !== port) return false;
    switch (entry.kind) {
      case 'address':
        return sameAddress(entry.address, address);
      case 'range':
        return entry.range[0].kind() === address.kind() && address.match(entry.range as [never, number]);
      case 'host':
        return entry.wildcard ? host.endsWith(`.${entry.host}`) : host === entry.host;
    }
  });
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * Decides whether a delivery may connect to `url`. The URL parser has already normalized the
 * tricks (`127.1`, `2130706433`, `0x7f000001`, `[::]`) to canonical addresses; host names are
 * resolved and every address they resolve to must pass. With DNS rebinding protection the
 * checked address is returned to be connected to.
 */
export async function checkOutbound(url: URL, settings: OutboundSettings, resolve: Resolver = systemResolver): Promise<OutboundDecision> {
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (settings.allowLocal) {
    // Multicast and broadcast are never an HTTP server, whatever the settings.
    const literal = normalizeAddress(hostname);
    if (literal && ALWAYS_REFUSED.has(literal.range())) return { allowed: false, reason: REFUSALS.special, retryable: false };
    return { allowed: true, pinned: null };
  }
  const port = url.port ? Number(url.port) : (DEFAULT_PORTS[url.protocol] ?? 80);

  let addresses: ResolvedAddress[];
  const literal = normalizeAddress(hostname);
  if (literal) {
    addresses = [{ address: hostname, family: hostname.includes(':') ? 6 : 4 }];
  } else {
    try {
      addresses = await resolve(hostname);
    } catch (error) {
      return {
        allowed: false,
        reason: `Host cannot be resolved or invalid (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
        retryable: true,
      };
    }
    if (addresses.length === 0) return { allowed: false, reason: 'Host cannot be resolved or invalid', retryable: true };
  }

  const entries = settings.whitelist.map(parseWhitelistEntry).filter((e): e is WhitelistEntry => e !== null);
  for (const { address } of addresses) {
    const parsed = normalizeAddress(address);
    if (!parsed) return { allowed: false, reason: `Host resolved to an invalid address ${address}`, retryable: false };
    const kind = localKind(parsed);
    if (kind === null || (!ALWAYS_REFUSED.has(parsed.range()) && isWhitelisted(entries, hostname, parsed, port))) continue;
    return { allowed: false, reason: REFUSALS[kind], retryable: false };
  }
  return { allowed: true, pinned: settings.dnsRebindingProtection && !literal ? addresses[0] : null };
}
