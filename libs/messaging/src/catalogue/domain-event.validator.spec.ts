import { buildDomainEvent, DomainEvent } from '../core/domain-event';
import { eventDataProblems, parseDomainEvent, validateDomainEvent } from './domain-event.validator';

const valid = (): DomainEvent =>
  buildDomainEvent({
    type: 'issue.closed',
    actor: 1,
    projectId: 7,
    groupId: 3,
    target: { type: 'Issue', id: 42, iid: 5, title: 'Broken' },
    data: { state: 'closed' },
    occurredAt: new Date('2025-01-02T03:04:05.678Z'),
  });

const problemsOf = (value: unknown): string[] => {
  const result = validateDomainEvent(value);
  return result.valid ? [] : result.problems;
};

describe(validateDomainEvent.name, () => {
  it('accepts an envelope built by buildDomainEvent and returns it unchanged', () => {
    const event = valid();
    expect(validateDomainEvent(JSON.parse(JSON.stringify(event)))).toEqual({ valid: true, event });
  });

  it('normalizes absent nullable fields to null and absent data to {}', () => {
    const { id, type, version, occurred_at } = valid();
    const result = validateDomainEvent({ id, type, version, occurred_at });
    expect(result).toEqual({
      valid: true,
      event: { id, type, version, occurred_at, actor: null, project_id: null, group_id: null, target: null, data: {} },
    });
  });

  it('keeps unknown top-level fields (newer producers may add some)', () => {
    const result = validateDomainEvent({ ...valid(), correlation_id: 'abc' });
    expect(result.valid && (result.event as unknown as Record<string, unknown>).correlation_id).toBe('abc');
  });

  it.each([
    ['a string', 'hello'],
    ['null', null],
    ['an array', [valid()]],
    ['a number', 42],
  ])('rejects %s instead of an object', (_label, value) => {
    expect(problemsOf(value)).toEqual(['envelope must be a JSON object']);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a missing id', { id: undefined }, 'id must be a uuid'],
    ['a non-uuid id', { id: 'evt-1' }, 'id must be a uuid'],
    ['a numeric id', { id: 12 }, 'id must be a uuid'],
    ['a missing type', { type: undefined }, 'type must be a non-empty string'],
    ['an empty type', { type: '' }, 'type must be a non-empty string'],
    ['a type with spaces', { type: 'issue closed' }, 'type must be a non-empty string'],
    ['an overlong type', { type: 'x'.repeat(256) }, 'type must be a non-empty string'],
    ['a string version', { version: '1' }, 'version must be a positive integer'],
    ['a fractional version', { version: 1.5 }, 'version must be a positive integer'],
    ['version 0', { version: 0 }, 'version must be a positive integer'],
    ['a missing occurred_at', { occurred_at: undefined }, 'occurred_at must be an ISO-8601'],
    ['a date-only occurred_at', { occurred_at: '2025-01-02' }, 'occurred_at must be an ISO-8601'],
    ['an occurred_at without zone', { occurred_at: '2025-01-02T03:04:05' }, 'occurred_at must be an ISO-8601'],
    ['an impossible occurred_at', { occurred_at: '2025-13-45T03:04:05Z' }, 'occurred_at must be an ISO-8601'],
    ['an epoch occurred_at', { occurred_at: 1735787045678 }, 'occurred_at must be an ISO-8601'],
    ['a string actor', { actor: '1' }, 'actor must be a non-negative integer or null'],
    ['a negative project_id', { project_id: -1 }, 'project_id must be a non-negative integer or null'],
    ['a fractional group_id', { group_id: 1.5 }, 'group_id must be a non-negative integer or null'],
    ['a string target', { target: 'Issue' }, 'target must be an object or null'],
    ['a target without type', { target: { id: 1 } }, 'target.type must be a non-empty string'],
    ['a target with an object id', { target: { type: 'Issue', id: {} } }, 'target.id must be an integer, a string or null'],
    ['a target with a string iid', { target: { type: 'Issue', id: 1, iid: '5' } }, 'target.iid must be a non-negative integer or null'],
    ['a target with a numeric title', { target: { type: 'Issue', id: 1, title: 5 } }, 'target.title must be a string or null'],
    ['array data', { data: [1, 2] }, 'data must be an object'],
    ['null data', { data: null }, 'data must be an object'],
  ])('rejects %s', (_label, change, expected) => {
    const problems = problemsOf({ ...valid(), ...change });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(expected);
  });

  it('accepts offsets other than Z and string target ids', () => {
    const result = validateDomainEvent({ ...valid(), occurred_at: '2025-01-02T05:04:05+02:00', target: { type: 'Commit', id: 'a1b2c3' } });
    expect(result.valid).toBe(true);
  });

  it('lists every problem at once', () => {
    expect(problemsOf({ id: 'x', type: 3, version: 'one', occurred_at: 'yesterday', actor: 'me' })).toHaveLength(5);
  });
});

describe(parseDomainEvent.name, () => {
  it('decodes UTF-8 JSON from a buffer', () => {
    const event = valid();
    expect(parseDomainEvent(Buffer.from(JSON.stringify(event)))).toEqual({ valid: true, event });
  });

  it.each([null, undefined, Buffer.alloc(0), ''])('reports an empty value (%p)', (raw) => {
    expect(parseDomainEvent(raw)).toEqual({ valid: false, problems: ['message value is empty'] });
  });

  it('reports invalid JSON', () => {
    const result = parseDomainEvent(Buffer.from('{"id": '));
    expect(result.valid).toBe(false);
    expect(!result.valid && result.problems[0]).toMatch(/^message value is not valid JSON: /);
  });

  it('validates the decoded value', () => {
    expect(parseDomainEvent('{"type":"push"}')).toMatchObject({ valid: false });
  });
});

describe(eventDataProblems.name, () => {
  const data = { badge_id: 1, kind: 'project', name: null, link_url: 'http://l', image_url: 'http://i' };

  it('accepts data that matches the catalogue, with fields it does not list, and any data of a type it does not know', () => {
    expect(eventDataProblems(buildDomainEvent({ type: 'badge.created', data: { ...data, extra: true } }))).toEqual([]);
    expect(eventDataProblems(buildDomainEvent({ type: 'deployment.created', data: { anything: 1 } }))).toEqual([]);
  });

  it('names what does not match the schema of the type', () => {
    expect(eventDataProblems(buildDomainEvent({ type: 'badge.created', data: { ...data, badge_id: 'one' } }))).toEqual([
      expect.stringMatching(/^data\.badge_id /),
    ]);
    expect(eventDataProblems(buildDomainEvent({ type: 'badge.created', data: {} })).length).toBeGreaterThan(1);
    const note = {
      id: 1,
      body: 'b',
      attachment: null,
      author: null,
      created_at: '2026-11-25T00:00:00.000Z',
      updated_at: '2026-11-25T00:00:00Z',
      system: false,
      noteable_id: 2,
      noteable_type: 'Issue',
      noteable_iid: 1,
      confidential: false,
      internal: false,
    };
    expect(eventDataProblems(buildDomainEvent({ type: 'note.created', data: { note } }))).toEqual([]);
    expect(eventDataProblems(buildDomainEvent({ type: 'note.created', data: { note: { ...note, created_at: 'yesterday' } } }))).toEqual([
      expect.stringMatching(/^data\.note\.created_at .*date-time/),
    ]);
  });
});
