import type { HookFanOutEvent } from '../core/hooks.jobs';
import { fanOutBatches } from './hook-dispatcher';

const event = (id: string, hooks: number): HookFanOutEvent => ({
  eventId: id,
  trigger: 'push',
  body: '{}',
  occurredAt: null,
  chainId: id,
  chainDepth: 1,
  hookIds: Array.from({ length: hooks }, (_, i) => i + 1),
});

describe(fanOutBatches.name, () => {
  it('groups events in order into jobs of about the given number of deliveries, named after their first event', () => {
    const events = ['a', 'b', 'c', 'd', 'e'].map((id) => event(id, 4));
    const batches = fanOutBatches(events, 10);
    expect(batches.map((b) => [b.jobId, b.events.map((e) => e.eventId)])).toEqual([
      ['fan-out_a', ['a', 'b', 'c']],
      ['fan-out_d', ['d', 'e']],
    ]);
  });

  it('gives an event with more hooks than a job holds a job of its own, and nothing for no events', () => {
    expect(fanOutBatches([event('a', 250), event('b', 1)], 100).map((b) => b.events.length)).toEqual([1, 1]);
    expect(fanOutBatches([], 100)).toEqual([]);
  });
});
