import { AppConfig } from '@app/config';
import { createDataSource } from '@app/database';
import { createTestDatabase, KafkaTopicReader, randomKafkaPrefix, startTestBroker, TestKafkaBroker } from '@app/testing';
import { DataSource } from 'typeorm';
import { OutboxEventEntity } from './outbox-event.entity';
import type { NewDomainEvent } from './catalogue/domain-event-catalogue';
import { DomainEvent, UncheckedNewDomainEvent } from './core/domain-event';
import { KafkaClient } from './kafka.factory';
import { OutboxRelay } from './outbox.relay';
import { OutboxService } from './outbox.service';

/** The outbox carries any type; this test writes events the catalogue does not check (their data is beside the point). */
const unchecked = (event: UncheckedNewDomainEvent): NewDomainEvent => event as NewDomainEvent;

// Starts, stops and restarts a private broker (never the shared one on 9092): ~30-60 s.
jest.setTimeout(180_000);

/** Bounded poll of an async condition. */
async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe(`${OutboxRelay.name} during a Kafka outage`, () => {
  let broker: TestKafkaBroker;
  let db: { url: string; drop: () => Promise<void> };
  let dataSource: DataSource;
  let relay: OutboxRelay;

  afterAll(async () => {
    await relay?.stop();
    await dataSource?.destroy();
    await db?.drop();
    await broker?.destroy();
  });

  it('keeps running while the broker is down and publishes every event exactly once after it is back', async () => {
    broker = await startTestBroker();
    db = await createTestDatabase('outbox_outage');
    const config = AppConfig.fromEnvironment({
      DATABASE_URL: db.url,
      KAFKA_BROKERS: broker.brokers.join(','),
      KAFKA_TOPIC_PREFIX: randomKafkaPrefix('outage'),
    });
    dataSource = await createDataSource(config, [OutboxEventEntity]).initialize();
    const outbox = new OutboxService(config);
    const kafka = new KafkaClient(config);
    relay = new OutboxRelay(dataSource, kafka, config);
    await relay.start();

    const written: DomainEvent[] = [];
    const write = async (transactions: number, label: string): Promise<void> => {
      for (let t = 0; t < transactions; t++) {
        const events = [1, 2, 3].map((project) => unchecked({ type: 'outage.test', projectId: project, data: { label, t } }));
        written.push(...(await dataSource.transaction((manager) => outbox.append(manager, events))));
      }
    };
    const unpublished = async (): Promise<number> => (await dataSource.query('SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL'))[0].n;

    // 1. Broker up: published.
    await write(5, 'before');
    await eventually(async () => ((await unpublished()) === 0 ? true : undefined), 20_000, 'the first events to be published');

    // 2. Broker down: writes still commit, the relay keeps trying.
    await broker.stop();
    await write(10, 'during');
    const failing = await eventually(
      async () => {
        const snapshot = await relay.snapshot();
        return snapshot.failing && snapshot.consecutiveFailures >= 2 ? snapshot : undefined;
      },
      30_000,
      'the relay to report failed attempts',
    );
    expect(failing).toMatchObject({ running: true, pending: 30, lastError: expect.objectContaining({ message: expect.any(String) }) });
    const attempts = await dataSource.query('SELECT min(attempts)::int AS min FROM outbox_events WHERE published_at IS NULL');
    expect(attempts[0].min).toBeGreaterThanOrEqual(1);
    await write(5, 'still down');

    // 3. Broker back on the same data dir: everything goes out.
    await broker.start();
    await eventually(async () => ((await unpublished()) === 0 ? true : undefined), 60_000, 'the backlog to be published');
    await expect(relay.snapshot()).resolves.toMatchObject({ running: true, failing: false, pending: 0 });

    // Consume the whole topic and count by event id.
    const reader = await KafkaTopicReader.start(broker.brokers, outbox.topic);
    try {
      const messages = await reader.readToEnd(30_000);
      const counts = new Map<string, number>();
      for (const m of messages) counts.set(m.headers['event-id'], (counts.get(m.headers['event-id']) ?? 0) + 1);
      expect(written).toHaveLength(60);
      expect(messages).toHaveLength(written.length);
      expect(written.filter((e) => counts.get(e.id) !== 1)).toEqual([]);
    } finally {
      await reader.stop();
    }
  });
});
