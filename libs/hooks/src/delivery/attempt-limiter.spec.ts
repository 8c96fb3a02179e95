import { AttemptLimiter, NOT_STARTED } from './attempt-limiter';

const deferred = () => {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};
const tick = () => new Promise((r) => setImmediate(r));

describe(AttemptLimiter.name, () => {
  it('runs at most `limit` attempts at once, in the order they were asked for', async () => {
    const sut = new AttemptLimiter(2, 2);
    const started: number[] = [];
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const runs = gates.map((gate, i) =>
      sut.run(i + 1, async () => {
        started.push(i);
        await gate.promise;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    gates[1].resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0].resolve();
    gates[2].resolve();
    gates[3].resolve();
    await Promise.all(runs);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(sut.active).toBe(0);
  });

  it('keeps a slow hook to its share: the other hooks still get slots while it waits in its own line', async () => {
    const sut = new AttemptLimiter(4, 3);
    const slow = deferred();
    const slowStarted: number[] = [];
    const slowRuns = Array.from({ length: 10 }, (_, i) =>
      sut.run(1, async () => {
        slowStarted.push(i);
        await slow.promise;
      }),
    );
    await tick();
    expect(slowStarted).toEqual([0, 1, 2]);
    expect(sut.inFlight(1)).toBe(3);
    // Another hook's attempts go through one at a time on the slot left over, not behind the 7 waiting.
    const fast: number[] = [];
    await Promise.all(Array.from({ length: 5 }, (_, i) => sut.run(2, async () => void fast.push(i))));
    expect(fast).toEqual([0, 1, 2, 3, 4]);
    slow.resolve();
    await Promise.all(slowRuns);
    expect(slowStarted).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(sut.active).toBe(0);
    expect(sut.inFlight(1)).toBe(0);
  });

  it("gives up on an attempt that waited too long in its hook's line, keeping the line in order", async () => {
    const sut = new AttemptLimiter(4, 1);
    const stuck = deferred();
    const first = sut.run(1, () => stuck.promise);
    const ran: string[] = [];
    const gaveUp = sut.tryRun(1, async () => void ran.push('late'), 20);
    const patient = sut.run(1, async () => void ran.push('patient'));
    await expect(gaveUp).resolves.toBe(NOT_STARTED);
    // Other hooks are not concerned.
    await expect(sut.tryRun(2, async () => 'other', 20)).resolves.toBe('other');
    stuck.resolve();
    await Promise.all([first, patient]);
    expect(ran).toEqual(['patient']);
    expect(sut.active).toBe(0);
  });

  it('gives up on attempts behind a hook that holds its share and answers slower than they come (a busy hook does not pace the rest)', async () => {
    jest.useFakeTimers();
    try {
      const sut = new AttemptLimiter(4, 1);
      let done = 0;
      // Each attempt of hook 1 takes 60 ms: the first two start within the 100 ms allowed; at 100 ms the hook still holds its share, the others are handed back.
      const runs = Array.from({ length: 6 }, () => sut.tryRun(1, () => new Promise<number>((r) => setTimeout(() => r(++done), 60)), 100));
      await jest.advanceTimersByTimeAsync(400);
      const results = await Promise.all(runs);
      expect(results).toEqual([1, 2, NOT_STARTED, NOT_STARTED, NOT_STARTED, NOT_STARTED]);
      expect(sut.active).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('does not give up on an attempt that only waits for slots other hooks hold (a burst is not a slow hook)', async () => {
    const sut = new AttemptLimiter(2, 2);
    const busy = deferred();
    const others = [sut.run(1, () => busy.promise), sut.run(3, () => busy.promise)];
    const waiting = sut.tryRun(2, async () => 'ran', 10);
    await new Promise((r) => setTimeout(r, 40));
    busy.resolve();
    await expect(waiting).resolves.toBe('ran');
    await Promise.all(others);
  });

  it('frees the slot of an attempt that throws', async () => {
    const sut = new AttemptLimiter(1);
    await expect(sut.run(1, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(sut.run(1, async () => 'next')).resolves.toBe('next');
    expect(sut.active).toBe(0);
  });
});
