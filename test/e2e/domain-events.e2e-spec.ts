import { KafkaClient, prefixed, TOPICS } from '@app/messaging';
import { eventually, KafkaTopicReader, TEST_KAFKA_BROKERS } from '@app/testing';
import { api, startTestGateway, TestGateway } from './support/test-gateway';

/** REST changes reach the Kafka stream through the outbox, read back by a real consumer. */
describe('Domain event stream', () => {
  let gw: TestGateway;
  let reader: KafkaTopicReader;

  beforeAll(async () => {
    gw = await startTestGateway('domain-events');
    // The relay creates the topics before its first send; the reader subscribes before that.
    await gw.app.get(KafkaClient).ensureTopics();
    reader = await KafkaTopicReader.start(TEST_KAFKA_BROKERS, prefixed(gw.config.kafka.topicPrefix, TOPICS.DOMAIN_EVENTS));
  });
  afterAll(async () => {
    await reader?.stop();
    await gw?.close();
  });

  it('publishes the events of identity use cases with the envelope, key = project id and the request id', async () => {
    const user = await api(gw.baseUrl, 'POST', '/api/v4/users', {
      token: gw.rootToken,
      headers: { 'X-Request-Id': 'trace-user-create-1' },
      body: { username: 'ivy', name: 'Ivy', email: 'ivy@example.com', password: 'long-enough-1' },
    });
    expect(user.status).toBe(201);
    const group = await api(gw.baseUrl, 'POST', '/api/v4/groups', { token: gw.rootToken, body: { name: 'Stream', path: 'stream' } });
    const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: gw.rootToken, body: { name: 'events', namespace_id: group.body.id } });
    const member = await api(gw.baseUrl, 'POST', `/api/v4/projects/${project.body.id}/members`, {
      token: gw.rootToken,
      body: { user_id: user.body.id, access_level: 30 },
    });
    expect(member.status).toBe(201);
    expect((await api(gw.baseUrl, 'DELETE', `/api/v4/projects/${project.body.id}`, { token: gw.rootToken })).status).toBe(202);

    const wanted = ['user_create', 'group_create', 'project_create', 'user_add_to_team', 'project_destroy'];
    const messages = await reader.waitFor((all) => wanted.every((type) => all.some((m) => m.headers['event-type'] === type)), 20_000, wanted.join(', '));
    const byType = (type: string) => messages.filter((m) => m.headers['event-type'] === type);

    const [userCreate] = byType('user_create').filter((m) => JSON.parse(m.value!).data.username === 'ivy');
    const envelope = JSON.parse(userCreate.value!);
    expect(envelope).toMatchObject({ type: 'user_create', version: 1, actor: 1, project_id: null, target: { type: 'user', id: user.body.id } });
    expect(envelope.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(userCreate.key).toBe('0');
    expect(userCreate.headers['event-id']).toBe(envelope.id);
    expect(userCreate.headers['x-request-id']).toBe('trace-user-create-1');

    for (const type of ['project_create', 'user_add_to_team', 'project_destroy']) {
      const [message] = byType(type).filter((m) => JSON.parse(m.value!).project_id === project.body.id);
      expect(message.key).toBe(String(project.body.id));
    }
    // One project's events share a key, hence a partition, in order.
    const projectEvents = messages.filter((m) => m.key === String(project.body.id));
    expect(new Set(projectEvents.map((m) => m.partition)).size).toBe(1);
    expect(projectEvents.map((m) => m.headers['event-type']).filter((t) => t !== 'user_add_to_team')).toEqual(['project_create', 'project_destroy']);

    const ids = messages.map((m) => m.headers['event-id']);
    expect(new Set(ids).size).toBe(ids.length);
    // A consumer may read a message before the relay has marked its row published: the
    // outbox drains (and the gauge reports it) within moments, never losing a row.
    await eventually(async () => {
      const [{ pending }] = await gw.dataSource.query('SELECT count(*)::int AS pending FROM outbox_events WHERE published_at IS NULL');
      return pending === 0 ? true : undefined;
    }, 'the outbox to drain');
    const metrics = await eventually(async () => {
      const response = await api(gw.baseUrl, 'GET', '/-/metrics');
      return /^outbox_pending_events 0$/m.test(response.text) ? response : undefined;
    }, 'the pending gauge to read 0');
    expect(Number(/^outbox_published_events (\d+)$/m.exec(metrics.text)?.[1])).toBeGreaterThanOrEqual(messages.length);
  });
});
