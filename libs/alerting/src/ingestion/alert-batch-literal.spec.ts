import { escapeLiteral as driverEscapeLiteral } from 'pg';
import { escapeLiteral, jsonLiteral } from './alert-batch.repository';

/** Deterministic pseudo-random strings over an alphabet rich in quotes and backslashes. */
function* samples(count: number): Generator<string> {
  const alphabet = ["'", '\\', '"', 'a', 'é', '😀', '\n', ' ', 'E', '\u0001', '$'];
  let seed = 7;
  for (let i = 0; i < count; i++) {
    let text = '';
    const length = i % 40;
    for (let j = 0; j < length; j++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      text += alphabet[seed % alphabet.length];
    }
    yield text;
  }
}

describe(escapeLiteral.name, () => {
  it.each(['', 'plain', "it's", 'back\\slash', "both ' and \\", "''\\\\", ' E'])('writes %p as the driver does', (text) => {
    expect(escapeLiteral(text)).toBe(driverEscapeLiteral(text));
  });

  it('writes every sampled string as the driver does', () => {
    for (const text of samples(2000)) expect(escapeLiteral(text)).toBe(driverEscapeLiteral(text));
  });

  it('round-trips JSON with quotes and backslashes through a literal', () => {
    const value = { title: `it's "quoted" \\ and \\u0000`, nested: [{ a: "'" }] };
    expect(jsonLiteral(value)).toBe(driverEscapeLiteral(JSON.stringify(value)));
  });
});
