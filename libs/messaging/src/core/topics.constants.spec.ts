import { AppConfig } from '@app/config';
import { prefixed } from './topics.constants';

describe(prefixed.name, () => {
  it('joins the prefix and the name with one dot', () => {
    expect(prefixed('', 'domain-events.v1')).toBe('domain-events.v1');
    expect(prefixed('x', 'domain-events.v1')).toBe('x.domain-events.v1');
  });

  it('does not double the dot of a prefix written with its separator (KAFKA_TOPIC_PREFIX=x.)', () => {
    expect(prefixed('x.', 'domain-events.v1')).toBe('x.domain-events.v1');
    expect(prefixed(AppConfig.fromEnvironment({ KAFKA_TOPIC_PREFIX: 'tenant.a.' }).kafka.topicPrefix, 'domain-events.v1')).toBe('tenant.a.domain-events.v1');
    expect(AppConfig.fromEnvironment({ KAFKA_TOPIC_PREFIX: 'x..' }).kafka.topicPrefix).toBe('x');
  });
});
