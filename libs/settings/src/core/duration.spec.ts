import { formatDuration, parseDuration } from './duration';

describe(parseDuration.name, () => {
  it.each<[string, number]>([
    ['1 day', 86_400],
    ['3 days', 259_200],
    ['1 week 2 days', 777_600],
    ['36h', 129_600],
    ['90 minutes', 5_400],
    ['1 month', 2_592_000],
    ['2 years', 63_072_000],
    ['1 day, 12 hours', 129_600],
    ['86400', 86_400],
    ['1.5 days', 129_600],
  ])('reads %s', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each(['', 'soon', '3 fortnights', 'day 3', '1 day later'])('refuses %p', (text) => {
    expect(parseDuration(text)).toBeNull();
  });
});

describe(formatDuration.name, () => {
  it('writes the long form', () => {
    expect(formatDuration(86_400)).toBe('1 day');
    expect(formatDuration(129_600)).toBe('1 day 12 hours');
    expect(formatDuration(777_600)).toBe('9 days');
    expect(formatDuration(31_536_000 + 61)).toBe('1 year 1 minute 1 second');
  });
});
