import { eventually, startTestBroker, TestKafkaBroker } from '@app/testing';
import { api, startTestGateway, TestGateway } from './support/test-gateway';

// Starts, stops and restarts a private broker (never the shared one on 9092).
jest.setTimeout(240_000);

/**
 * While Kafka is down the gateway still takes writes (they wait in the outbox): it stays ready
 * (200) and says `degraded` naming Kafka, so that a load balancer keeps sending it traffic.
 */
describe('Readiness and liveness while Kafka is down', () => {
  let broker: TestKafkaBroker;
  let gw: TestGateway;

  beforeAll(async () => {
    broker = await startTestBroker();
    gw = await startTestGateway('readiness_kafka', { KAFKA_BROKERS: broker.brokers.join(',') });
  });
  afterAll(async () => {
    await gw?.close();
    await broker?.destroy();
  });

  const unpublished = async (): Promise<number> => (await gw.dataSource.query('SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL'))[0].n;

  it('is ok with the broker up, degraded but ready while it is stopped, ok again once it is back', async () => {
    const ready = await api(gw.baseUrl, 'GET', '/-/readiness');
    expect(ready).toMatchObject({
      status: 200,
      body: { status: 'ok', checks: { postgres: { status: 'up' }, migrations: { status: 'up' }, redis: { status: 'up' }, kafka: { status: 'up' } } },
    });
    expect((await api(gw.baseUrl, 'GET', '/-/health')).body).toEqual({ status: 'ok' });

    await broker.stop();
    const degraded = await eventually(
      async () => {
        const res = await api(gw.baseUrl, 'GET', '/-/readiness');
        return res.body.checks.kafka.status === 'up' ? undefined : res;
      },
      'readiness to see the broker gone',
      30_000,
      250,
    );
    expect(degraded.status).toBe(200);
    expect(degraded.body).toEqual({
      status: 'degraded',
      checks: { postgres: { status: 'up' }, migrations: { status: 'up' }, redis: { status: 'up' }, kafka: { status: 'degraded', error: expect.any(String) } },
    });
    // Liveness says so too, and stays 200 (answered from the last known state, without waiting for Kafka).
    const health = await eventually(
      async () => {
        const res = await api(gw.baseUrl, 'GET', '/-/health');
        return res.body.status === 'degraded' ? res : undefined;
      },
      'liveness to report Kafka',
      30_000,
      250,
    );
    expect(health).toMatchObject({ status: 200, body: { status: 'degraded', checks: { kafka: { status: 'degraded', error: expect.any(String) } } } });

    // Writes still succeed: their events wait in the outbox.
    const created = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: gw.rootToken, body: { name: 'written-while-kafka-is-down' } });
    expect(created.status).toBe(201);
    expect(await unpublished()).toBeGreaterThan(0);

    await broker.start();
    await eventually(async () => ((await api(gw.baseUrl, 'GET', '/-/readiness')).body.status === 'ok' ? true : undefined), 'readiness ok again', 60_000, 250);
    await eventually(async () => ((await api(gw.baseUrl, 'GET', '/-/health')).body.status === 'ok' ? true : undefined), 'liveness ok again', 30_000, 250);
    await eventually(async () => ((await unpublished()) === 0 ? true : undefined), 'the outbox published once Kafka is back', 60_000, 250);
  });
});
