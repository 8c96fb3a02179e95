import { AlertingFixture } from './support/alerting-fixture';
import { startTestGateway, TestGateway } from './support/test-gateway';

/** Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FUZZ_CASES = 2000;

/** Thousands of malformed bodies against the real notify endpoint: never a 500, always a JSON answer. */
describe('Alert notify endpoint under malformed input', () => {
  let gw: TestGateway;
  let fx: AlertingFixture;
  let integration: { path: string; token: string };

  beforeAll(async () => {
    gw = await startTestGateway('alert-fuzz');
    fx = new AlertingFixture(gw);
    const project = await fx.project('fuzz', 'target');
    integration = await fx.integration(project.id, { name: 'Fuzz' });
  });
  afterAll(() => gw.close());

  function generator(rand: () => number) {
    const int = (max: number) => Math.floor(rand() * max);
    const pick = <T>(items: readonly T[]): T => items[int(items.length)];
    const randomBytes = (length: number) => Buffer.from(Array.from({ length }, () => int(256)));
    const randomValue = (depth: number): unknown => {
      switch (int(depth > 3 ? 6 : 8)) {
        case 0:
          return null;
        case 1:
          return rand() < 0.5;
        case 2:
          return pick([0, -1, 1e308, -1e-308, 2 ** 53 + 1, 3.14, 1772272800, -62135596800]);
        case 3:
          return pick(['', ' ', 'critical', 'HIGH', '2026-01-01T00:00:00Z', 'not a date', '\u0000', '\ud800', '💥'.repeat(int(300)), 'x'.repeat(int(3000))]);
        case 4:
          return String.fromCharCode(...Array.from({ length: int(50) }, () => int(0xffff)));
        case 5:
          return int(1e9);
        case 6:
          return Array.from({ length: int(5) }, () => randomValue(depth + 1));
        default:
          return Object.fromEntries(
            Array.from({ length: int(5) }, () => [
              pick(['title', 'hosts', 'severity', 'fingerprint', 'start_time', 'end_time', 'x', '__proto__', 'constructor', '']),
              randomValue(depth + 1),
            ]),
          );
      }
    };
    const fields = [
      'title',
      'description',
      'start_time',
      'end_time',
      'service',
      'monitoring_tool',
      'hosts',
      'severity',
      'fingerprint',
      'service_environment_name',
      '__proto__',
      'details',
    ];

    return (): { body: Buffer; contentType: string } => {
      const json = (text: string) => ({ body: Buffer.from(text, 'utf8'), contentType: 'application/json' });
      switch (int(10)) {
        case 0:
          return { body: randomBytes(int(2000)), contentType: 'application/json' };
        case 1: {
          const depth = 50 + int(3000);
          const open = Array.from({ length: depth }, () => pick(['[', '{"a":']));
          const close = open.map((o) => (o === '[' ? ']' : '}')).reverse();
          return json(`{"x":${open.join('')}1${rand() < 0.8 ? close.join('') : ''}}`);
        }
        case 2:
          return json(JSON.stringify({ title: 'x'.repeat(rand() < 0.1 ? 900_000 + int(300_000) : int(5000)), hosts: ['h'.repeat(int(10_000))] }));
        case 3:
          return json(JSON.stringify(Object.fromEntries(fields.filter(() => rand() < 0.6).map((f) => [f, randomValue(0)]))));
        case 4: {
          const valid = Buffer.from(JSON.stringify({ title: 'enc', description: 'é€😀' }), 'utf8');
          const index = int(valid.length);
          return { body: Buffer.concat([valid.subarray(0, index), randomBytes(1 + int(4)), valid.subarray(index)]), contentType: 'application/json' };
        }
        case 5:
          return json(
            pick([
              '{"title":"\\ud800"}',
              '{"t":"\\u0000"}',
              '{"\\u0000":1}',
              '{"a":"\\x"}',
              '{"a":1e999}',
              '{"a":-}',
              '\ufeff{"a":1}',
              '{"a":"\u0001"}',
              'nul',
              '{"a":1}garbage',
              '{}}',
              '[[[]]]',
            ]),
          );
        case 6: {
          const text = JSON.stringify({ title: 'cut', labels: { a: [1, 2, { b: 'c' }] } });
          return json(text.slice(0, int(text.length)));
        }
        case 7:
          return json(JSON.stringify(randomValue(0)));
        case 8:
          return {
            body: Buffer.from(JSON.stringify({ title: 'wrong type' })),
            contentType: pick([
              'text/plain',
              'application/x-www-form-urlencoded',
              'application/xml',
              'application/json; charset=latin1',
              'multipart/form-data; boundary=x',
              '',
            ]),
          };
        default:
          return json(`{"a":"${'\\'.repeat(int(100))}${'"'.repeat(int(3))}}`);
      }
    };
  }

  it(`answers ${FUZZ_CASES} malformed requests with 2xx/4xx JSON, never a 500`, async () => {
    const next = generator(random(20261122));
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const cases = Array.from({ length: FUZZ_CASES }, () => next());
    let index = 0;
    const worker = async () => {
      while (index < cases.length) {
        const current = index++;
        const { body, contentType } = cases[current];
        const headers: Record<string, string> = { authorization: `Bearer ${integration.token}` };
        if (contentType) headers['content-type'] = contentType;
        const response = await fetch(`${gw.baseUrl}${integration.path}`, { method: 'POST', headers, body });
        const text = await response.text();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        const jsonAnswer =
          response.status === 200 ? Array.isArray(parsed) : parsed !== null && typeof parsed === 'object' && ('message' in parsed || 'error' in parsed);
        if (response.status >= 500 || !jsonAnswer)
          failures.push(`case ${current}: ${response.status} ${text.slice(0, 200)} for ${body.subarray(0, 80).toString('hex')}`);
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    expect(failures).toEqual([]);
    expect([...statuses.keys()].every((status) => [200, 400, 413, 415].includes(status))).toBe(true);
    expect(statuses.get(200)).toBeGreaterThan(50);
    expect(statuses.get(400)).toBeGreaterThan(50);

    const healthy = await fx.notify(integration.path, { title: 'still alive' }, { token: integration.token });
    expect(healthy.status).toBe(200);
  }, 180_000);
});
