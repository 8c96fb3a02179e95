import { incidentSeverityOf } from './incident-severity';

describe(incidentSeverityOf.name, () => {
  it.each([
    ['critical', 'critical'],
    ['high', 'high'],
    ['medium', 'medium'],
    ['low', 'low'],
    ['info', 'low'],
    ['unknown', 'unknown'],
    [null, 'unknown'],
    ['bogus', 'unknown'],
  ])('maps alert severity %p to incident severity %p', (alert, incident) => {
    expect(incidentSeverityOf(alert)).toBe(incident);
  });
});
