import { createQuerystringParser, DEFAULT_PARAMETER_LIMITS, parseParameters, queryParseError } from './query-string';

describe(parseParameters.name, () => {
  it('reads arrays, hashes and arrays of hashes in bracket notation', () => {
    expect(parseParameters('a[]=1&a[]=2&h[k]=v&h[j]=w&n[0][k]=v&n[0][o]=w&n[1][k]=x')).toEqual({
      a: ['1', '2'],
      h: { k: 'v', j: 'w' },
      n: [{ k: 'v', o: 'w' }, { k: 'x' }],
    });
  });

  it('decodes + as a space and %2B as a plus', () => {
    expect(parseParameters('t=2020-01-01T00:00:00%2B02:00&s=a+b')).toEqual({ t: '2020-01-01T00:00:00+02:00', s: 'a b' });
  });

  it('keeps the last value of a repeated plain key', () => {
    expect(parseParameters('a=1&a=2')).toEqual({ a: '2' });
  });

  it('ignores keys that would reach the prototype', () => {
    const parsed = parseParameters('__proto__[admin]=1&constructor[prototype][x]=1&hasOwnProperty=1');
    expect(parsed).toEqual({});
    expect(({} as Record<string, unknown>)['admin']).toBeUndefined();
  });

  it('leaves a malformed escape as it is instead of failing', () => {
    expect(parseParameters('x=%E0%A4%A')).toEqual({ x: '%E0%A4%A' });
  });

  it('throws when a limit is exceeded instead of truncating', () => {
    const limits = { parameterLimit: 3, arrayLimit: 2, depth: 2 };
    expect(() => parseParameters('a=1&b=2&c=3&d=4', limits)).toThrow(RangeError);
    expect(() => parseParameters('a[]=1&a[]=2&a[]=3', limits)).toThrow(RangeError);
    expect(() => parseParameters('a[b][c][d]=1', limits)).toThrow(RangeError);
    expect(parseParameters('a[]=1&a[]=2', limits)).toEqual({ a: ['1', '2'] });
  });
});

describe(createQuerystringParser.name, () => {
  const sut = createQuerystringParser({ ...DEFAULT_PARAMETER_LIMITS, depth: 2 });

  it('parses like parseParameters', () => {
    const query = sut('a[]=1&b=2');
    expect(query).toEqual({ a: ['1'], b: '2' });
    expect(queryParseError(query)).toBeUndefined();
  });

  it('never throws: a query beyond the limits becomes an empty object carrying the reason', () => {
    const query = sut('a[b][c][d]=1');
    expect(query).toEqual({});
    expect(queryParseError(query)).toMatch(/depth/);
  });
});
