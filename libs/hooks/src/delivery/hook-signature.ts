import { createHash, Hash, hash } from 'node:crypto';

/**
 * Standard Webhooks signature (https://www.standardwebhooks.com): `v1,` + base64 of
 * HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>`, keyed by the UTF-8 bytes of the
 * hook token. A receiver's Standard Webhooks secret is therefore `whsec_` + base64(token):
 * `new Webhook('whsec_' + Buffer.from(token).toString('base64'))`. A hook without a token is
 * not signed (no `webhook-signature` header).
 */
export function signDelivery(token: string, webhookId: string, timestampSeconds: number, body: string | Buffer): string {
  // The body as bytes (encoded once per event for all its hooks) after the prefix: the same bytes as the joined string.
  const { inner, outer } = hmacStates(token);
  const innerDigest = inner.copy().update(`${webhookId}.${timestampSeconds}.`).update(body).digest();
  return `v1,${outer.copy().update(innerDigest).digest('base64')}`;
}

const SHA256_BLOCK_BYTES = 64;

/**
 * HMAC-SHA256 (RFC 2104) of a token as two SHA-256 states, after the inner and the outer padded
 * key: a signature copies them and hashes only the message, rather than setting up an HMAC (and
 * hashing both padded keys) for every delivery, which costs more than hashing a body of a few KB.
 */
const HMAC_STATES = new Map<string, { inner: Hash; outer: Hash }>();
function hmacStates(token: string): { inner: Hash; outer: Hash } {
  let states = HMAC_STATES.get(token);
  if (!states) {
    let key = Buffer.from(token, 'utf8');
    if (key.length > SHA256_BLOCK_BYTES) key = createHash('sha256').update(key).digest();
    const innerPad = Buffer.alloc(SHA256_BLOCK_BYTES, 0x36);
    const outerPad = Buffer.alloc(SHA256_BLOCK_BYTES, 0x5c);
    for (let i = 0; i < key.length; i++) {
      innerPad[i] ^= key[i];
      outerPad[i] ^= key[i];
    }
    states = { inner: createHash('sha256').update(innerPad), outer: createHash('sha256').update(outerPad) };
    if (HMAC_STATES.size >= 1000) HMAC_STATES.clear();
    HMAC_STATES.set(token, states);
  }
  return states;
}

/** The Standard Webhooks secret a receiver configures for a hook token. */
export const standardWebhooksSecret = (token: string): string => `whsec_${Buffer.from(token, 'utf8').toString('base64')}`;

/**
 * The `Idempotency-Key` of one (event, hook): a UUID derived from both ids, so that the same
 * delivery keeps its key whoever enqueues it and however many times.
 */
export function idempotencyKeyOf(eventId: string, hookId: number): string {
  const hex = hash('sha256', `system-hook-delivery:${eventId}:${hookId}`, 'hex');
  // RFC 9562 version 8 (custom) layout.
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const HOOK_USER_AGENT = 'Service-Hook/4';
export const HOOK_EVENT_HEADER_VALUE = 'System Hook';
const REDACTED = '[REDACTED]';
/** Request headers whose values are never stored in the delivery log. */
const SECRET_HEADERS = new Set(['x-service-token', 'webhook-signature', 'authorization']);

export interface DeliveryHeaderInput {
  /** The body as sent (its UTF-8 bytes, when already encoded). */
  body: string | Buffer;
  token: string | null;
  idempotencyKey: string;
  /** New per attempt. */
  webhookUuid: string;
  instanceUrl: string;
  chainId: string;
  chainDepth: number;
  /** Seconds since the epoch. */
  timestamp: number;
}

/** Every header of one delivery attempt. */
export function deliveryHeaders(input: DeliveryHeaderInput): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': HOOK_USER_AGENT,
    'X-Service-Event': HOOK_EVENT_HEADER_VALUE,
    'X-Service-Instance': input.instanceUrl,
    'X-Service-Webhook-UUID': input.webhookUuid,
    'X-Service-Event-UUID': input.chainId,
    'X-Service-Event-Chain-Depth': String(input.chainDepth),
    'Idempotency-Key': input.idempotencyKey,
    'webhook-id': input.idempotencyKey,
    'webhook-timestamp': String(input.timestamp),
  };
  if (input.token) {
    headers['X-Service-Token'] = input.token;
    headers['webhook-signature'] = signDelivery(input.token, input.idempotencyKey, input.timestamp, input.body);
  }
  return headers;
}

/** The headers as the delivery log keeps them: token, signature and credentials redacted. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const redacted: Record<string, string> = {};
  for (const name in headers) redacted[name] = SECRET_HEADERS.has(name) || SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : headers[name];
  return redacted;
}
