import { copyField, copyLine, NewHookDelivery } from './hook-delivery-log';

describe(copyLine.name, () => {
  const row: NewHookDelivery = {
    hookId: 7,
    eventId: 'e-1',
    trigger: 'push',
    url: 'http://127.0.0.1:9/hook',
    requestHeaders: { 'Content-Type': 'application/json', 'X-Service-Token': '[REDACTED]' },
    requestBody: null,
    responseStatus: 200,
    responseHeaders: { 'x-note': 'a\\b' },
    responseBody: 'line 1\nline 2\r\n\tindented\u0000',
    status: 'successful',
    error: null,
    durationMs: 12,
    idempotencyKey: 'k',
    webhookUuid: 'u',
    attempt: 1,
    eventOccurredAt: '2026-01-31T12:00:00Z',
  };

  it('writes the columns in order in COPY text format: \\N for NULL, backslash, newline, CR and tab escaped, NUL dropped', () => {
    expect(copyLine(row)).toBe(
      [
        '7',
        'e-1',
        'push',
        'http://127.0.0.1:9/hook',
        '{"Content-Type":"application/json","X-Service-Token":"[REDACTED]"}',
        '\\N',
        '200',
        '{"x-note":"a\\\\\\\\b"}',
        'line 1\\nline 2\\r\\n\\tindented',
        'successful',
        '\\N',
        '12',
        'k',
        'u',
        '1',
        '2026-01-31T12:00:00Z',
      ].join('\t') + '\n',
    );
  });

  it('bounds the trigger, the URL and the duration to their columns', () => {
    const fields = copyLine({ ...row, trigger: 't'.repeat(300), url: `http://h/${'p'.repeat(3000)}`, durationMs: 2 ** 40 }).split('\t');
    expect(fields[2]).toHaveLength(255);
    expect(fields[3]).toHaveLength(2048);
    expect(fields[11]).toBe('2147483647');
  });

  it('leaves a field without special characters as it is', () => {
    expect(copyField('plain text')).toBe('plain text');
    expect(copyField(null)).toBe('\\N');
    expect(copyField(3)).toBe('3');
  });
});
