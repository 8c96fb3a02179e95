import { startedPerHourSeries } from './alerts.controller';

describe(startedPerHourSeries.name, () => {
  const now = new Date('2026-11-25T10:20:00Z');

  it('gives one entry per hour, oldest first, the current hour last, zeros where nothing started', () => {
    const sut = startedPerHourSeries(
      [
        { hour: new Date('2026-11-25T10:00:00Z'), severity: 'critical', count: 2 },
        { hour: new Date('2026-11-25T10:00:00Z'), severity: 'low', count: 1 },
        { hour: new Date('2026-11-25T08:00:00Z'), severity: 'high', count: 4 },
        { hour: new Date('2026-11-25T06:00:00Z'), severity: 'high', count: 9 },
      ],
      3,
      now,
    );
    expect(sut).toEqual([
      { hour: '2026-11-25T08:00:00.000Z', total: 4, critical: 0, high: 4, medium: 0, low: 0, info: 0, unknown: 0 },
      { hour: '2026-11-25T09:00:00.000Z', total: 0, critical: 0, high: 0, medium: 0, low: 0, info: 0, unknown: 0 },
      { hour: '2026-11-25T10:00:00.000Z', total: 3, critical: 2, high: 0, medium: 0, low: 1, info: 0, unknown: 0 },
    ]);
  });
});
