import { createTestDatabase } from '@app/testing';
import { Client } from 'pg';
import { escapeLiteral, jsonLiteral } from './alert-batch.repository';

/** Seeded generator (mulberry32): the same strings on every run, a failure is reproducible. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Characters a literal must survive: quotes, backslashes, `E`, `$`, every control character but NUL, and Unicode (BMP and astral). */
const SPECIAL = ["'", "''", '\\', '\\\\', '"', 'E', "E'", '$$', '$1', ';', '--', '/*', '\u2028', 'é', 'ß', '中', '😀', '𝄞', '\u00a0', '\ufeff'];

function sample(next: () => number): string {
  const length = Math.floor(next() * 60);
  let text = '';
  for (let i = 0; i < length; i++) {
    const pick = next();
    if (pick < 0.45) text += SPECIAL[Math.floor(next() * SPECIAL.length)];
    else if (pick < 0.6)
      text += String.fromCharCode(1 + Math.floor(next() * 31)); // control characters, NUL excluded
    else if (pick < 0.8)
      text += String.fromCharCode(32 + Math.floor(next() * 95)); // printable ASCII
    else {
      // Any Unicode scalar value (no lone surrogates, which UTF-8 cannot carry).
      let code = 0x80 + Math.floor(next() * (0x10ffff - 0x80));
      if (code >= 0xd800 && code <= 0xdfff) code -= 0x800;
      text += String.fromCodePoint(code);
    }
  }
  return text;
}

/** The literals of `alert-batch.repository.ts` as PostgreSQL reads them, over the simple query protocol the batch uses. */
describe('escapeLiteral / jsonLiteral (PostgreSQL)', () => {
  let client: Client;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const db = await createTestDatabase('batch_literals');
    drop = db.drop;
    client = new Client({ connectionString: db.url });
    await client.connect();
  });

  afterAll(async () => {
    await client.end();
    await drop();
  });

  it('reads back 4,000 random strings exactly as text', async () => {
    const next = random(20261125);
    for (let round = 0; round < 20; round++) {
      const texts = Array.from({ length: 200 }, () => sample(next));
      const values = texts.map((text, i) => `(${i}, ${escapeLiteral(text)}::text)`).join(',\n');
      const { rows } = await client.query(`SELECT i, v FROM (VALUES ${values}) AS t(i, v) ORDER BY i`);
      expect(rows.map((r: { v: string }) => r.v)).toEqual(texts);
    }
  });

  it('reads back 2,000 random JSON documents exactly as jsonb', async () => {
    const next = random(7);
    for (let round = 0; round < 10; round++) {
      const documents = Array.from({ length: 200 }, () => ({
        [sample(next)]: sample(next),
        nested: [sample(next), { deep: sample(next) }],
        n: Math.floor(next() * 1e9),
      }));
      const values = documents.map((doc, i) => `(${i}, ${jsonLiteral(doc)}::jsonb)`).join(',\n');
      const { rows } = await client.query(`SELECT i, v FROM (VALUES ${values}) AS t(i, v) ORDER BY i`);
      expect(rows.map((r: { v: unknown }) => r.v)).toEqual(documents);
    }
  });

  it('keeps a literal that ends in a backslash or a quote from swallowing the next one', async () => {
    const texts = ['\\', "'", "\\'", "'\\", ' E', "x\\'; SELECT 1; --"];
    const { rows } = await client.query(`SELECT ARRAY[${texts.map(escapeLiteral).join(', ')}]::text[] AS v`);
    expect(rows[0].v).toEqual(texts);
  });
});
