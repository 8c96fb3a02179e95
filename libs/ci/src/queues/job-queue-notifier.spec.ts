import type { AppConfig } from '@app/config';
import { JobQueueNotifier } from './job-queue-notifier';

describe('JobQueueNotifier wake-ups', () => {
  const flush = () => new Promise((resolve) => setImmediate(resolve));

  /** Waiters in order; `woken[i]` becomes true when waiter i is woken. */
  function waiters(notifier: JobQueueNotifier, count: number, triedRound = -1) {
    const woken = Array.from({ length: count }, () => false);
    const controller = new AbortController();
    const done = Array.from({ length: count }, (_, i) => notifier.wait(60_000, controller.signal, triedRound).then((wasWoken) => (woken[i] = wasWoken)));
    return { woken, stop: async () => (controller.abort(), await Promise.all(done)) };
  }

  it('wakes as many waiters as jobs were enqueued, oldest first, and changes the version', async () => {
    const notifier = new JobQueueNotifier({} as AppConfig);
    const { woken, stop } = waiters(notifier, 5);
    const before = notifier.version;
    notifier.notified('2');
    await flush();
    expect(woken).toEqual([true, true, false, false, false]);
    expect(notifier.version).not.toBe(before);
    expect(notifier.waiting).toBe(3);
    await stop();
  });

  it('wakes every waiter for a payload without a count', async () => {
    const notifier = new JobQueueNotifier({} as AppConfig);
    const { woken, stop } = waiters(notifier, 3);
    notifier.notified('');
    await flush();
    expect(woken).toEqual([true, true, true]);
    await stop();
  });

  it('hands a wake-up on to a waiter that has not asked in this round, never back to one that has', async () => {
    const notifier = new JobQueueNotifier({} as AppConfig);
    notifier.notified('0');
    const round = notifier.round;
    // Two runners already asked in this round and found nothing; one has not.
    const tried = waiters(notifier, 2, round);
    const fresh = waiters(notifier, 1);
    notifier.handOn();
    await flush();
    expect(tried.woken).toEqual([false, false]);
    expect(fresh.woken).toEqual([true]);
    // Nobody left who has not asked: the hand-over stops.
    notifier.handOn();
    await flush();
    expect(tried.woken).toEqual([false, false]);
    // A new round makes them eligible again.
    notifier.notified('1');
    await flush();
    expect(tried.woken).toEqual([true, false]);
    await tried.stop();
    await fresh.stop();
  });
});
