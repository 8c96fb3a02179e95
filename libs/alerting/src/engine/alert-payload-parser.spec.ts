import {
  ALERT_PAYLOAD_MAX_BYTES,
  ALERT_PAYLOAD_MAX_DEPTH,
  checkPayloadShape,
  isStorableJsonText,
  parseAlertPayload,
  sanitizeJson,
} from './alert-payload-parser';

const body = (text: string) => Buffer.from(text, 'utf8');
const nested = (depth: number) => `{"a":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

describe(parseAlertPayload.name, () => {
  it('parses a JSON object', () => {
    expect(parseAlertPayload(body(' {"title":"x","n":[1,{"b":2}]} '))).toEqual({ ok: true, payload: { title: 'x', n: [1, { b: 2 }] } });
  });

  it('accepts exactly the maximum depth and refuses one more, before parsing', () => {
    expect(parseAlertPayload(body(nested(ALERT_PAYLOAD_MAX_DEPTH))).ok).toBe(true);
    expect(parseAlertPayload(body(nested(ALERT_PAYLOAD_MAX_DEPTH + 1)))).toMatchObject({ ok: false, reason: 'too_deep' });
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(parseAlertPayload(body(JSON.stringify({ t: '['.repeat(500) + '\\"' + '{'.repeat(500) })))).toMatchObject({ ok: true });
  });

  it('refuses a megabyte of brackets in one pass without building it', () => {
    expect(checkPayloadShape(Buffer.alloc(ALERT_PAYLOAD_MAX_BYTES, '['))).toMatchObject({ ok: false, reason: 'not_an_object' });
    expect(checkPayloadShape(Buffer.concat([body('{"a":'), Buffer.alloc(ALERT_PAYLOAD_MAX_BYTES - 10, '[')]))).toMatchObject({ ok: false, reason: 'too_deep' });
  });

  it('refuses a body over the size limit', () => {
    expect(parseAlertPayload(Buffer.alloc(ALERT_PAYLOAD_MAX_BYTES + 1, ' '))).toMatchObject({ ok: false, reason: 'too_large' });
  });

  it.each(['', '   ', '[]', '"text"', '42', 'null', 'true'])('refuses a top level that is not an object: %p', (text) => {
    expect(parseAlertPayload(body(text))).toMatchObject({ ok: false, reason: 'not_an_object' });
  });

  it.each(['{', '{"a":}', "{'a':1}", '{"a":1}}', '{"a":1,}'])('refuses malformed JSON: %p', (text) => {
    expect(parseAlertPayload(body(text))).toMatchObject({ ok: false, reason: 'invalid_json' });
  });

  it('makes strings storable: NUL removed, lone surrogates replaced, __proto__ dropped', () => {
    const result = parseAlertPayload(body('{"t":"a\\u0000b","s":"\\ud800x","__proto__":{"polluted":1},"k\\u0000":1}'));
    expect(result).toEqual({ ok: true, payload: { t: 'ab', s: '\uFFFDx', k: 1 } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('drops a __proto__ key spelled with escapes, and one nested in an array', () => {
    const result = parseAlertPayload(body('{"\\u005f_proto__":{"polluted":1},"list":[{"__proto__":1,"x":"\\u0000"}]}'));
    expect(result).toEqual({ ok: true, payload: { list: [{ x: '' }] } });
    expect(Object.prototype.hasOwnProperty.call((result as { payload: Record<string, unknown> }).payload, '__proto__')).toBe(false);
  });

  it.each([
    '{"title":"plain","hosts":["a","b"],"n":1.5,"nested":{"deep":[null,true,"é ✓ 😀"]}}',
    '{"quote":"a \\" b","slash":"c \\\\ d","tab":"\\t","newline":"\\n"}',
  ])('returns the plain parse, equal to the sanitized copy, when nothing needs sanitizing: %p', (text) => {
    expect(isStorableJsonText(text)).toBe(true);
    const result = parseAlertPayload(body(text));
    expect(result).toEqual({ ok: true, payload: sanitizeJson(JSON.parse(text)) });
  });

  it.each(['{"a":"\\u0041"}', '{"__proto__":1}', '{"a":{"__proto__":{}}}'])('sanitizes text with an escape or a __proto__: %p', (text) => {
    expect(isStorableJsonText(text)).toBe(false);
  });

  it('tolerates a UTF-8 byte order mark and invalid UTF-8 bytes', () => {
    expect(parseAlertPayload(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body('{"a":1}')]))).toEqual({ ok: true, payload: { a: 1 } });
    const invalid = Buffer.concat([body('{"t":"'), Buffer.from([0xff, 0xfe]), body('"}')]);
    expect(parseAlertPayload(invalid)).toEqual({ ok: true, payload: { t: '\uFFFD\uFFFD' } });
  });
});
