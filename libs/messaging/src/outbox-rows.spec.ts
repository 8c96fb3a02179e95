import { runWithRequestId } from '@app/observability';
import type { NewDomainEvent } from './catalogue/domain-event-catalogue';
import type { UncheckedNewDomainEvent } from './core/domain-event';
import { currentOutboxContext, outboxHeaders, outboxRecordOf, outboxRecordsOf, runWithEnvelopeExtras } from './outbox-rows';

/** The outbox carries any type; this test writes events the catalogue does not check (their data is beside the point). */
const unchecked = (event: UncheckedNewDomainEvent): NewDomainEvent => event as NewDomainEvent;

const raw = { type: 'issue.opened', actor: 3, projectId: 42, groupId: 7, target: { type: 'issue', id: 9, iid: 1, title: 't' }, data: { x: 1 } };
const event = unchecked(raw);

describe(outboxRecordOf.name, () => {
  it('builds the envelope, the topic, the key (project id) and the given headers', () => {
    const sut = outboxRecordOf(event, 'p.domain-events.v1', {}, { a: 'b' });
    expect(sut).toEqual({
      id: sut.payload.id,
      topic: 'p.domain-events.v1',
      message_key: '42',
      headers: { a: 'b' },
      payload: expect.objectContaining({ type: 'issue.opened', version: 1, actor: 3, project_id: 42, group_id: 7, data: { x: 1 } }),
    });
    expect(sut.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keys instance events by "0"', () => {
    expect(outboxRecordOf(unchecked({ type: 'user_create' }), 't', {}, {}).message_key).toBe('0');
  });

  it('adds the envelope extras as top-level fields, never over the envelope own fields', () => {
    const sut = outboxRecordOf(event, 't', { extras: { hook_chain: { id: 'c', depth: 2 }, type: 'forged', id: 'forged' } }, {});
    expect(sut.payload).toMatchObject({ hook_chain: { id: 'c', depth: 2 }, type: 'issue.opened' });
    expect(sut.payload.id).not.toBe('forged');
    expect(sut.id).toBe(sut.payload.id);
  });
});

describe(outboxHeaders.name, () => {
  it('adds the request id unless the headers have one', () => {
    expect(outboxHeaders({ requestId: 'r1' })).toEqual({ 'x-request-id': 'r1' });
    expect(outboxHeaders({ requestId: 'r1' }, { 'x-request-id': 'mine', k: 'v' })).toEqual({ 'x-request-id': 'mine', k: 'v' });
    expect(outboxHeaders({}, { k: 'v' })).toEqual({ k: 'v' });
  });
});

describe(outboxRecordsOf.name, () => {
  it('builds one row per event in order, each with its own id', () => {
    const sut = outboxRecordsOf([event, unchecked({ ...raw, type: 'issue.closed', projectId: 5 })], 't', { requestId: 'r' });
    expect(sut.map((r) => [r.payload.type, r.message_key, r.headers])).toEqual([
      ['issue.opened', '42', { 'x-request-id': 'r' }],
      ['issue.closed', '5', { 'x-request-id': 'r' }],
    ]);
    expect(new Set(sut.map((r) => r.id)).size).toBe(2);
  });
});

describe(currentOutboxContext.name, () => {
  it('captures the request id and the envelope extras of the current context', () => {
    expect(currentOutboxContext()).toEqual({ requestId: undefined, extras: undefined });
    const inside = runWithRequestId('req-9', () => runWithEnvelopeExtras({ hook_chain: { id: 'c', depth: 1 } }, () => currentOutboxContext()));
    expect(inside).toEqual({ requestId: 'req-9', extras: { hook_chain: { id: 'c', depth: 1 } } });
  });
});
