// kafkajs' request queue, as patched in patches/kafkajs+2.2.4.patch (applied by `npm install`).
const RequestQueue = require('kafkajs/src/network/requestQueue') as new (options: Record<string, unknown>) => {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: unknown;
  scheduleCheckPendingRequests(): void;
  destroy(): void;
};

const silentLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, namespace: () => silentLogger };

/**
 * Node 24 warns (`TimeoutNegativeWarning`) for a negative timer: kafkajs computed its next
 * pending-requests check from `throttledUntil` (-1 when never throttled) minus `Date.now()`,
 * and armed a timer even with nothing pending — at every boot, and then in a 1 ms loop.
 */
describe('kafkajs RequestQueue (patched)', () => {
  const queue = () =>
    new RequestQueue({
      instrumentationEmitter: null,
      maxInFlightRequests: null,
      requestTimeout: 30_000,
      enforceRequestTimeout: true,
      clientId: 'test',
      broker: 'b:9092',
      logger: silentLogger,
    });
  let timers: jest.SpyInstance;

  beforeEach(() => {
    timers = jest.spyOn(global, 'setTimeout');
  });
  afterEach(() => timers.mockRestore());

  it('arms no timer when nothing is pending and nothing is throttled', () => {
    const sut = queue();
    sut.scheduleCheckPendingRequests();
    expect(timers).not.toHaveBeenCalled();
    expect(sut.throttleCheckTimeoutId ?? null).toBeNull();
  });

  it('never arms a timer with a negative delay, and still checks pending requests', () => {
    const sut = queue();
    sut.pending.push({});
    sut.scheduleCheckPendingRequests();
    expect(timers).toHaveBeenCalledTimes(1);
    expect(timers.mock.calls[0][1]).toBeGreaterThan(0);
    clearTimeout(sut.throttleCheckTimeoutId as NodeJS.Timeout);
  });

  it('waits until the end of a throttle', () => {
    const sut = queue();
    sut.throttledUntil = Date.now() + 5_000;
    sut.scheduleCheckPendingRequests();
    expect(timers.mock.calls[0][1]).toBeGreaterThan(4_000);
    clearTimeout(sut.throttleCheckTimeoutId as NodeJS.Timeout);
  });
});
