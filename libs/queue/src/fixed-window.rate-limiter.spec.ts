import { fixedWindowOf } from './fixed-window.rate-limiter';

describe(fixedWindowOf.name, () => {
  it('aligns windows on the epoch', () => {
    expect(fixedWindowOf(0, 60)).toEqual({ index: 0, retryAfterSeconds: 60 });
    expect(fixedWindowOf(59_999, 60)).toEqual({ index: 0, retryAfterSeconds: 1 });
    expect(fixedWindowOf(60_000, 60)).toEqual({ index: 1, retryAfterSeconds: 60 });
  });

  it('rounds the seconds left up, as whole seconds from the start of the current second', () => {
    // 12.4 s into a 10 s window that began at 10 s: 7.6 s left, announced as 8.
    expect(fixedWindowOf(12_400, 10)).toEqual({ index: 1, retryAfterSeconds: 8 });
    // The same as counting in whole seconds: (index + 1) * window - floor(now in s).
    for (const now of [1_000, 1_001, 29_999, 3_600_500]) {
      const seconds = Math.floor(now / 1000);
      expect(fixedWindowOf(now, 30).retryAfterSeconds).toBe((Math.floor(seconds / 30) + 1) * 30 - seconds);
    }
  });
});
