import type { IncomingMessage } from 'node:http';
import { generateRequestId, getRequestId } from './request-id';

const raw = (headers: Record<string, string | string[]>) => ({ headers }) as unknown as IncomingMessage;

describe(generateRequestId.name, () => {
  it('reuses a plain incoming X-Request-Id', () => {
    expect(generateRequestId(raw({ 'x-request-id': 'abc-1.2:3_x' }))).toBe('abc-1.2:3_x');
  });

  it.each(['', 'x'.repeat(129), 'with space', 'new\nline', '<script>'])('replaces an unsafe id (%j) with a UUID', (value) => {
    expect(generateRequestId(raw({ 'x-request-id': value }))).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps the id on the raw request for code that only sees IncomingMessage', () => {
    const request = raw({});
    const id = generateRequestId(request);
    expect(getRequestId(request)).toBe(id);
    expect(getRequestId({ raw: request })).toBe(id);
    expect(getRequestId({ id: 'fastify-id', raw: request })).toBe('fastify-id');
    expect(getRequestId(undefined)).toBeUndefined();
  });
});
