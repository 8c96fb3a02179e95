import { ALERT_FIELD_LIMITS, DEFAULT_ALERT_TITLE, hostsOf, normalizeAlert, timeOf } from './normalize-alert';
import { fingerprintOf, payloadFingerprintOf } from './fingerprint';
import { normalizeSeverity } from './alert-severity';
import type { AttributeMapping } from './attribute-mapping';

const now = new Date('2026-03-01T12:00:00.000Z');
const sut = (payload: Record<string, unknown>, options: { mappings?: AttributeMapping[]; payloadFingerprint?: boolean } = {}) =>
  normalizeAlert(payload, { now, ...options });

describe(normalizeAlert.name, () => {
  it('applies every default to an empty payload', () => {
    expect(sut({})).toEqual({
      title: DEFAULT_ALERT_TITLE,
      description: null,
      startedAt: now,
      endedAt: null,
      service: null,
      monitoringTool: null,
      hosts: [],
      severity: 'critical',
      fingerprint: null,
      environment: null,
      details: {},
    });
  });

  it('reads every standard attribute', () => {
    const alert = sut({
      title: 'CPU high',
      description: 'load 20',
      start_time: '2026-02-28T10:00:00Z',
      service: 'api',
      monitoring_tool: 'Nagios',
      hosts: ['web-1', 'web-2'],
      severity: 'LOW',
      fingerprint: 'cpu-web',
      service_environment_name: 'production',
    });
    expect(alert).toMatchObject({
      title: 'CPU high',
      description: 'load 20',
      startedAt: new Date('2026-02-28T10:00:00Z'),
      service: 'api',
      monitoringTool: 'Nagios',
      hosts: ['web-1', 'web-2'],
      severity: 'low',
      fingerprint: fingerprintOf('cpu-web'),
      environment: 'production',
      details: {},
    });
  });

  it('uses the default title for a blank or non-text title, and trims', () => {
    expect(sut({ title: '   ' }).title).toBe(DEFAULT_ALERT_TITLE);
    expect(sut({ title: { nested: true } }).title).toBe(DEFAULT_ALERT_TITLE);
    expect(sut({ title: '  Disk  ' }).title).toBe('Disk');
    expect(sut({ title: 404 }).title).toBe('404');
  });

  it('defaults start_time to the receipt time when it is missing or unreadable', () => {
    expect(sut({ start_time: 'yesterday-ish' }).startedAt).toEqual(now);
    expect(sut({ start_time: { when: 1 } }).startedAt).toEqual(now);
    expect(sut({ start_time: '99999-01-01T00:00:00Z' }).startedAt).toEqual(now);
  });

  it('reads times as ISO 8601, RFC 2822 and Unix seconds or milliseconds', () => {
    expect(timeOf('2026-02-28T10:00:00+02:00')).toEqual(new Date('2026-02-28T08:00:00Z'));
    expect(timeOf('Sat, 28 Feb 2026 10:00:00 GMT')).toEqual(new Date('2026-02-28T10:00:00Z'));
    expect(timeOf(1772272800)).toEqual(new Date('2026-02-28T10:00:00Z'));
    expect(timeOf('1772272800')).toEqual(new Date('2026-02-28T10:00:00Z'));
    expect(timeOf(1772272800000)).toEqual(new Date('2026-02-28T10:00:00Z'));
    expect(timeOf(Number.NaN)).toBeNull();
    expect(timeOf('')).toBeNull();
  });

  it('marks a payload with end_time as a recovery; an unreadable end_time ends at the receipt time', () => {
    expect(sut({ end_time: '2026-02-28T11:00:00Z' }).endedAt).toEqual(new Date('2026-02-28T11:00:00Z'));
    expect(sut({ end_time: 'soon' }).endedAt).toEqual(now);
    expect(sut({ end_time: null }).endedAt).toBeNull();
    expect(sut({ end_time: '' }).endedAt).toBeNull();
  });

  it.each([
    ['critical', 'critical'],
    ['HIGH', 'high'],
    ['Medium', 'medium'],
    [' low ', 'low'],
    ['info', 'info'],
    ['UNKNOWN', 'unknown'],
    ['warning', 'critical'],
    ['', 'critical'],
    [3, 'critical'],
    [null, 'critical'],
    [undefined, 'critical'],
  ])('maps severity %p to %p', (input, expected) => {
    expect(normalizeSeverity(input)).toBe(expected);
    expect(sut(input === undefined ? {} : { severity: input }).severity).toBe(expected);
  });

  it('takes hosts as a string or an array, flattening and dropping what is not text', () => {
    expect(sut({ hosts: 'db-1' }).hosts).toEqual(['db-1']);
    expect(hostsOf(['a', ['b', ['c']], 7, null, { x: 1 }, ' ', true])).toEqual(['a', 'b', 'c', '7']);
    expect(hostsOf(42)).toEqual(['42']);
    expect(hostsOf(undefined)).toEqual([]);
  });

  it('truncates long values instead of failing', () => {
    const alert = sut({
      title: 't'.repeat(500),
      description: 'd'.repeat(5000),
      service: 's'.repeat(300),
      monitoring_tool: 'm'.repeat(300),
      hosts: ['h'.repeat(200), 'i'.repeat(200), 'j'],
    });
    expect(alert.title).toHaveLength(ALERT_FIELD_LIMITS.title);
    expect(alert.description).toHaveLength(ALERT_FIELD_LIMITS.description);
    expect(alert.service).toHaveLength(ALERT_FIELD_LIMITS.service);
    expect(alert.monitoringTool).toHaveLength(ALERT_FIELD_LIMITS.monitoringTool);
    expect(alert.hosts).toEqual(['h'.repeat(200), 'i'.repeat(55)]);
    expect(alert.hosts.join('')).toHaveLength(ALERT_FIELD_LIMITS.hosts);
  });

  it('does not split a surrogate pair when truncating', () => {
    const title = `${'x'.repeat(199)}😀tail`;
    expect(sut({ title }).title).toBe('x'.repeat(199));
  });

  it('keeps extra attributes, primitives or nested objects, in details', () => {
    const alert = sut({ title: 'x', runbook: 'https://wiki/r', count: 3, flag: false, labels: { team: 'db', tags: ['a'] }, none: null });
    expect(alert.details).toEqual({ runbook: 'https://wiki/r', count: 3, flag: false, labels: { team: 'db', tags: ['a'] }, none: null });
  });

  it('fingerprints the whole payload only when asked (PREMIUM), and prefers an explicit fingerprint', () => {
    const payload = { title: 'Disk', labels: { a: 1 } };
    expect(sut(payload).fingerprint).toBeNull();
    expect(sut(payload, { payloadFingerprint: true }).fingerprint).toBe(payloadFingerprintOf(payload));
    expect(sut({ ...payload, fingerprint: ['x', 'y'] }, { payloadFingerprint: true }).fingerprint).toBe(fingerprintOf(['x', 'y']));
  });

  describe('custom mapping', () => {
    const mappings: AttributeMapping[] = [
      { fieldName: 'title', path: ['alert', 'name'], type: 'string' },
      { fieldName: 'severity', path: ['alert', 'labels', 'level'], type: 'string' },
      { fieldName: 'start_time', path: ['timing', 'began'], type: 'datetime' },
      { fieldName: 'end_time', path: ['timing', 'ended'], type: 'datetime' },
      { fieldName: 'hosts', path: ['targets'], type: 'array' },
      { fieldName: 'fingerprint', path: ['alert', 'id'], type: 'string' },
      { fieldName: 'monitoring_tool', path: ['source', 0], type: 'string' },
    ];

    it('reads mapped fields from their paths, with their types', () => {
      const alert = sut(
        { alert: { name: 'Queue stuck', id: 77, labels: { level: 'High' } }, timing: { began: '2026-02-01T00:00:00Z' }, targets: 'mq-1', source: ['Zabbix'] },
        { mappings },
      );
      expect(alert).toMatchObject({
        title: 'Queue stuck',
        severity: 'high',
        startedAt: new Date('2026-02-01T00:00:00Z'),
        endedAt: null,
        hosts: ['mq-1'],
        fingerprint: fingerprintOf('77'),
        monitoringTool: 'Zabbix',
      });
    });

    it('falls back to the default attribute when the mapped value is missing or of another type', () => {
      const alert = sut({ title: 'Plain title', alert: { name: { not: 'text' } }, severity: 'info', end_time: '2026-02-02T00:00:00Z' }, { mappings });
      expect(alert.title).toBe('Plain title');
      expect(alert.severity).toBe('info');
      expect(alert.endedAt).toEqual(new Date('2026-02-02T00:00:00Z'));
    });
  });
});
