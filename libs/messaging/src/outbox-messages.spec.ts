import { chunkBySize, errorMessage, hasErrorType, OutboxRow, produceRequestsOf, toMessage } from './outbox-messages';

const row = (
  id: string,
  topic = 't.domain-events.v1',
  payload: Record<string, unknown> = { type: 'issue.created', n: id },
  headers: OutboxRow['headers'] = null,
): OutboxRow => ({
  seq: id,
  id: `id-${id}`,
  topic,
  message_key: `key-${id}`,
  payload,
  headers,
});

describe(toMessage.name, () => {
  it('keys the JSON payload by the row key and adds event-id and event-type to the row headers', () => {
    const sut = toMessage(row('1', 'topic-a', { type: 'user.created', id: 7 }, { 'request-id': 'r1', 'hook-chain-depth': 2, dropped: null }));
    expect(sut.topic).toBe('topic-a');
    expect(sut.message).toEqual({
      key: 'key-1',
      value: '{"type":"user.created","id":7}',
      headers: { 'request-id': 'r1', 'hook-chain-depth': '2', 'event-id': 'id-1', 'event-type': 'user.created' },
    });
  });

  it('counts the bytes of value, key and headers (UTF-8)', () => {
    const sut = toMessage(row('é', 'x', { type: 'ü' }));
    const value = '{"type":"ü"}';
    const headerBytes = Buffer.byteLength('event-idid-é') + Buffer.byteLength('event-typeü');
    expect(sut.bytes).toBe(Buffer.byteLength(value) + Buffer.byteLength('key-é') + headerBytes);
  });

  it('gives an empty event-type to a payload without type', () => {
    expect(toMessage(row('1', 't', {})).message.headers).toMatchObject({ 'event-type': '' });
  });
});

describe(chunkBySize.name, () => {
  it('keeps order and never exceeds the bound, except a single larger item alone', () => {
    const items = [3, 4, 2, 10, 1, 1].map((bytes, i) => ({ bytes, i }));
    expect(chunkBySize(items, 7).map((chunk) => chunk.map(({ i }) => i))).toEqual([[0, 1], [2], [3], [4, 5]]);
  });

  it('gives nothing for nothing', () => {
    expect(chunkBySize([], 10)).toEqual([]);
  });
});

describe(produceRequestsOf.name, () => {
  it('groups each request by topic, keeping row order within a topic', () => {
    const requests = produceRequestsOf([row('1', 'a'), row('2', 'b'), row('3', 'a')], 1_000_000);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.map(({ topic, messages }) => [topic, messages.map((m) => m.key)])).toEqual([
      ['a', ['key-1', 'key-3']],
      ['b', ['key-2']],
    ]);
  });

  it('splits the rows into requests of at most maxRequestBytes', () => {
    const rows = ['1', '2', '3'].map((id) => row(id));
    const one = toMessage(rows[0]!).bytes;
    expect(produceRequestsOf(rows, one * 2).map((request) => request.flatMap((t) => t.messages.map((m) => m.key)))).toEqual([['key-1', 'key-2'], ['key-3']]);
  });
});

describe(hasErrorType.name, () => {
  it('finds a protocol error type in the error or the errors it wraps', () => {
    const types = new Set(['UNKNOWN_PRODUCER_ID']);
    expect(hasErrorType({ type: 'UNKNOWN_PRODUCER_ID' }, types)).toBe(true);
    expect(hasErrorType({ originalError: { errors: [{ cause: { type: 'UNKNOWN_PRODUCER_ID' } }] } }, types)).toBe(true);
    expect(hasErrorType({ type: 'OTHER', errors: [{}] }, types)).toBe(false);
    expect(hasErrorType(null, types)).toBe(false);
  });
});

describe(errorMessage.name, () => {
  it('adds the wrapped error message when it differs', () => {
    const error = Object.assign(new Error('Connection error'), { originalError: new Error('ECONNREFUSED') });
    expect(errorMessage(error)).toBe('Connection error (ECONNREFUSED)');
    expect(errorMessage(Object.assign(new Error('same'), { originalError: new Error('same') }))).toBe('same');
    expect(errorMessage('plain')).toBe('plain');
  });
});
