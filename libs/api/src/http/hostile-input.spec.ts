import { Readable } from 'node:stream';
import { containsLoneSurrogate, containsNullByte, findMalformedString, JSON_MAX_DEPTH, jsonNestedDeeperThan } from './hostile-input';

describe(jsonNestedDeeperThan.name, () => {
  const nested = (levels: number): Buffer => Buffer.from(`${'['.repeat(levels)}${']'.repeat(levels)}`);

  it('accepts the limit and refuses one level more', () => {
    expect(jsonNestedDeeperThan(nested(JSON_MAX_DEPTH))).toBe(false);
    expect(jsonNestedDeeperThan(nested(JSON_MAX_DEPTH + 1))).toBe(true);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(jsonNestedDeeperThan(Buffer.from(`{"a":"${'['.repeat(500)}\\"${'{'.repeat(500)}"}`))).toBe(false);
  });

  it('copes with a huge depth without recursion', () => {
    expect(jsonNestedDeeperThan(nested(1_000_000))).toBe(true);
  });
});

describe(containsNullByte.name, () => {
  it('finds NUL in strings, nested values and keys', () => {
    expect(containsNullByte('a\u0000')).toBe(true);
    expect(containsNullByte({ a: [{ b: ['x', 'y\u0000'] }] })).toBe(true);
    expect(containsNullByte({ 'k\u0000': 1 })).toBe(true);
  });

  it('passes clean values and does not look into raw buffers', () => {
    expect(containsNullByte({ a: ['x', 1, null, true, { b: 'c' }] })).toBe(false);
    expect(containsNullByte(Buffer.from([0, 0, 0]))).toBe(false);
    expect(containsNullByte(undefined)).toBe(false);
  });

  it('looks into null-prototype objects, as query parsers make them', () => {
    expect(containsNullByte(Object.assign(Object.create(null) as object, { q: 'a\u0000' }))).toBe(true);
  });

  it('does not walk a streamed body: a request stream, however cyclic its graph, is no parameter', () => {
    const socket: Record<string, unknown> = { name: 'x\u0000' };
    socket.self = socket;
    const body = new Readable({ read() {} });
    Object.assign(body, { socket });
    expect(containsNullByte(body)).toBe(false);
    expect(containsNullByte({ body })).toBe(false);
  });

  it('walks objects whose prototype is a null-prototype object (the router builds path parameters so)', () => {
    function Params(this: object): void {}
    Params.prototype = Object.create(null) as object;
    const params = Object.assign(new (Params as unknown as new () => object)(), { id: '\u0000' });
    expect(containsNullByte(params)).toBe(true);
  });

  it('ends on cyclic values', () => {
    const cyclic: Record<string, unknown> = { a: 'b' };
    cyclic.self = cyclic;
    expect(containsNullByte(cyclic)).toBe(false);
  });
});

describe(findMalformedString.name, () => {
  it('finds a lone surrogate in strings, nested values and keys', () => {
    expect(containsLoneSurrogate(JSON.parse('{"title":"a\\ud800"}'))).toBe(true);
    expect(containsLoneSurrogate({ a: [{ b: ['x', 'y\udc00z'] }] })).toBe(true);
    expect(containsLoneSurrogate({ 'k\ud800': 1 })).toBe(true);
    expect(findMalformedString(['\udfff'])).toBe('lone-surrogate');
  });

  it('passes a surrogate pair (an astral character) and U+FFFD', () => {
    expect(findMalformedString({ emoji: '\ud83d\ude00', parsed: JSON.parse('"\\ud83d\\ude00"'), replacement: '\ufffd' })).toBeNull();
  });

  it('names a NUL first, wherever it is', () => {
    expect(findMalformedString(['\u0000', '\ud800'])).toBe('null-byte');
    expect(findMalformedString(['\ud800', '\u0000'])).toBe('null-byte');
    expect(containsNullByte({ a: '\ud800', b: 'x\u0000' })).toBe(true);
    expect(containsLoneSurrogate({ a: '\ud800', b: 'x\u0000' })).toBe(false);
  });

  it('does not look into raw buffers', () => {
    expect(findMalformedString(Buffer.from([0xed, 0xa0, 0x80]))).toBeNull();
  });
});
