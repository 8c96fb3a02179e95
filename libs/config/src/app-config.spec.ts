import { AppConfig, ConfigValidationError } from './app-config';

describe(AppConfig.name, () => {
  it('applies the defaults', () => {
    const sut = AppConfig.fromEnvironment({});
    expect(sut.http.port).toBe(3000);
    expect(sut.http.externalUrl).toBe('http://localhost:3000');
    expect(sut.tier).toBe('ultimate');
    expect(sut.kafka.brokers).toEqual(['127.0.0.1:9092']);
    expect(sut.auth.initialRootToken).toBeUndefined();
  });

  it('derives EXTERNAL_URL from PORT and strips a trailing slash from an explicit one', () => {
    expect(AppConfig.fromEnvironment({ PORT: '8080' }).http.externalUrl).toBe('http://localhost:8080');
    expect(AppConfig.fromEnvironment({ EXTERNAL_URL: 'https://alerts.example.com/' }).http.externalUrl).toBe('https://alerts.example.com');
  });

  it('lists every bad variable at once', () => {
    let error: unknown;
    try {
      AppConfig.fromEnvironment({ PORT: 'http', SERVICE_TIER: 'gold', DATABASE_URL: 'mysql://x', KAFKA_BROKERS: 'localhost', INITIAL_ROOT_TOKEN: 'short' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigValidationError);
    const problems = (error as ConfigValidationError).problems.map((p) => p.split(':')[0]).sort();
    expect(problems).toEqual(['DATABASE_URL', 'INITIAL_ROOT_TOKEN', 'KAFKA_BROKERS', 'PORT', 'SERVICE_TIER']);
    expect((error as Error).message).not.toContain('short');
  });

  it('ignores empty values and variables it does not know', () => {
    const sut = AppConfig.fromEnvironment({ PORT: '', SOMETHING_ELSE: 'x', SERVICE_TIER: 'free' });
    expect(sut.http.port).toBe(3000);
    expect(sut.tier).toBe('free');
  });
});
