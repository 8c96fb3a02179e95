import { Webhook } from 'standardwebhooks';
import { deliveryHeaders, idempotencyKeyOf, redactHeaders, signDelivery, standardWebhooksSecret } from './hook-signature';

const input = {
  body: JSON.stringify({ event_name: 'project_create', project_id: 1 }),
  token: 's3cret-token',
  idempotencyKey: idempotencyKeyOf('0b9e0f7e-9d7a-4d4c-8d2e-1f6a3c1b2a10', 3),
  webhookUuid: '4c1f0d9e-5a55-4a3e-9b7e-2b0c6f8c1d22',
  instanceUrl: 'https://service.example',
  chainId: '0b9e0f7e-9d7a-4d4c-8d2e-1f6a3c1b2a10',
  chainDepth: 1,
  timestamp: Math.floor(Date.now() / 1000),
};

describe(deliveryHeaders.name, () => {
  it('sends every header, and a signature a Standard Webhooks verifier accepts with whsec_ + base64(token)', () => {
    const headers = deliveryHeaders(input);
    expect(headers).toMatchObject({
      'Content-Type': 'application/json',
      'User-Agent': expect.stringMatching(/^Service-Hook\//),
      'X-Service-Event': 'System Hook',
      'X-Service-Token': 's3cret-token',
      'X-Service-Instance': 'https://service.example',
      'X-Service-Webhook-UUID': input.webhookUuid,
      'Idempotency-Key': input.idempotencyKey,
      'webhook-id': input.idempotencyKey,
      'webhook-timestamp': String(input.timestamp),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]+=*$/),
    });
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    expect(new Webhook(standardWebhooksSecret('s3cret-token')).verify(input.body, lower)).toEqual(JSON.parse(input.body));
    // Without the prefix, the base64 secret works too.
    expect(new Webhook(Buffer.from('s3cret-token').toString('base64')).verify(input.body, lower)).toEqual(JSON.parse(input.body));
  });

  it('fails verification for another token, a changed body or a changed id', () => {
    const headers = Object.fromEntries(Object.entries(deliveryHeaders(input)).map(([k, v]) => [k.toLowerCase(), v]));
    expect(() => new Webhook(standardWebhooksSecret('other-token')).verify(input.body, headers)).toThrow();
    expect(() => new Webhook(standardWebhooksSecret('s3cret-token')).verify(`${input.body} `, headers)).toThrow();
    expect(() => new Webhook(standardWebhooksSecret('s3cret-token')).verify(input.body, { ...headers, 'webhook-id': 'x' })).toThrow();
  });

  it('sends neither token nor signature for a hook without token', () => {
    const headers = deliveryHeaders({ ...input, token: null });
    expect(headers['X-Service-Token']).toBeUndefined();
    expect(headers['webhook-signature']).toBeUndefined();
    expect(headers['webhook-id']).toBe(input.idempotencyKey);
  });

  it('redacts the token, the signature and basic credentials for the log', () => {
    const redacted = redactHeaders({ ...deliveryHeaders(input), Authorization: 'Basic abc' });
    expect(redacted['X-Service-Token']).toBe('[REDACTED]');
    expect(redacted['webhook-signature']).toBe('[REDACTED]');
    expect(redacted.Authorization).toBe('[REDACTED]');
    expect(JSON.stringify(redacted)).not.toContain('s3cret-token');
  });
});

describe(idempotencyKeyOf.name, () => {
  it('is a UUID that depends on the event and the hook only', () => {
    const key = idempotencyKeyOf('e1', 1);
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(idempotencyKeyOf('e1', 1)).toBe(key);
    expect(idempotencyKeyOf('e1', 2)).not.toBe(key);
    expect(idempotencyKeyOf('e2', 1)).not.toBe(key);
  });

  it('is the key deliveries have always carried (a resend of an old delivery keeps it)', () => {
    const hex = require('node:crypto').createHash('sha256').update('system-hook-delivery:e1:1').digest('hex') as string;
    expect(idempotencyKeyOf('e1', 1).replace(/-/g, '').slice(0, 12)).toBe(hex.slice(0, 12));
    expect(idempotencyKeyOf('e1', 1).slice(-12)).toBe(hex.slice(20, 32));
  });
});

describe(signDelivery.name, () => {
  it('is HMAC-SHA256 over id.timestamp.body', () => {
    expect(signDelivery('k', 'id', 1, 'b')).toBe(`v1,${require('node:crypto').createHmac('sha256', 'k').update('id.1.b').digest('base64')}`);
  });

  it.each([
    ['a short token', 'k'],
    ['a token of one block', 'x'.repeat(64)],
    ['a token longer than a block (hashed first)', 'y'.repeat(65)],
    ['a non-ASCII token', 'clé-secrète-✓'],
  ])('equals HMAC-SHA256 for %s, signature after signature, with the body as a string or its UTF-8 bytes', (_label, token) => {
    const body = JSON.stringify({ message: 'héllo ✓', n: 1 });
    const hmac = (timestamp: number) =>
      `v1,${require('node:crypto').createHmac('sha256', Buffer.from(token, 'utf8')).update(`id.${timestamp}.${body}`).digest('base64')}`;
    expect(signDelivery(token, 'id', 1, body)).toBe(hmac(1));
    expect(signDelivery(token, 'id', 2, Buffer.from(body, 'utf8'))).toBe(hmac(2));
    expect(signDelivery(token, 'id', 1, body)).toBe(hmac(1));
  });
});
