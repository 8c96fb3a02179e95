import { accessLogLevel } from './request-logging';

describe(accessLogLevel.name, () => {
  it('logs server errors as errors, on any route', () => {
    expect(accessLogLevel(500, '/api/v4/projects/:id')).toBe('error');
    expect(accessLogLevel(503, '/-/readiness')).toBe('error');
  });

  it('logs API requests at info, client errors included', () => {
    expect(accessLogLevel(200, '/api/v4/projects/:id')).toBe('info');
    expect(accessLogLevel(404, 'unmatched')).toBe('info');
  });

  it('quiets successful probes and scrapes to debug', () => {
    expect(accessLogLevel(200, '/-/health')).toBe('debug');
    expect(accessLogLevel(200, '/-/metrics')).toBe('debug');
    expect(accessLogLevel(404, '/-/metrics')).toBe('info');
  });
});
