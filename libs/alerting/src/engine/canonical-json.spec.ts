import { canonicalJson } from './canonical-json';

describe(canonicalJson.name, () => {
  it('sorts object keys at every level and drops whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: true, y: null }], c: 'x' } })).toBe('{"a":{"c":"x","d":[1,{"y":null,"z":true}]},"b":1}');
  });

  it('gives equal encodings to objects equal as JSON data, whatever the key order', () => {
    expect(canonicalJson(JSON.parse('{"x":1,"y":[2,3]}'))).toBe(canonicalJson(JSON.parse('{ "y": [2, 3], "x": 1 }')));
  });

  it('keeps types and element boundaries apart', () => {
    const encodings = [
      canonicalJson('abc'),
      canonicalJson(['a', 'bc']),
      canonicalJson(['ab', 'c']),
      canonicalJson(42),
      canonicalJson('42'),
      canonicalJson([42]),
    ];
    expect(new Set(encodings).size).toBe(encodings.length);
  });

  it('escapes strings as JSON and writes numbers in their shortest form', () => {
    expect(canonicalJson('a"b\\c\n')).toBe('"a\\"b\\\\c\\n"');
    expect(canonicalJson(1.0)).toBe('1');
    expect(canonicalJson(1e21)).toBe('1e+21');
    expect(canonicalJson(Number.NaN)).toBe('null');
  });

  it('orders keys by UTF-16 code units, not by locale', () => {
    expect(canonicalJson({ b: 1, B: 2, é: 3, a: 4 })).toBe('{"B":2,"a":4,"b":1,"é":3}');
  });
});
