import { AppConfig } from '@app/config';
import { createDataSource } from '@app/database';
import { createTestDatabase, eventually, KafkaTopicReader, randomKafkaPrefix, ReadMessage, TEST_KAFKA_BROKERS } from '@app/testing';
import { DataSource } from 'typeorm';
import { OutboxEventEntity } from './outbox-event.entity';
import type { NewDomainEvent } from './catalogue/domain-event-catalogue';
import { DomainEvent, UncheckedNewDomainEvent } from './core/domain-event';
import { KafkaClient } from './kafka.factory';
import { OutboxRelay, OutboxRelayOptions } from './outbox.relay';
import { OutboxService } from './outbox.service';
import { prefixed, TOPICS } from './core/topics.constants';

jest.setTimeout(60_000);

describe(OutboxRelay.name, () => {
  let db: { url: string; drop: () => Promise<void> };
  let config: AppConfig;
  let dataSource: DataSource;
  let kafka: KafkaClient;
  let outbox: OutboxService;
  let reader: KafkaTopicReader;
  const relays: OutboxRelay[] = [];

  // A one-minute poll interval: publication within a second proves the LISTEN/NOTIFY wake-up.
  const newRelay = (options: OutboxRelayOptions = {}): OutboxRelay => {
    const relay = new OutboxRelay(dataSource, kafka, config, { pollMs: 60_000, ...options });
    relays.push(relay);
    return relay;
  };
  const append = (events: UncheckedNewDomainEvent[], headers?: Record<string, string>): Promise<DomainEvent[]> =>
    // The relay carries any type: these events are not checked against the catalogue.
    dataSource.transaction((manager) => outbox.append(manager, events as NewDomainEvent[], headers));
  const byId = (messages: ReadMessage[]): Map<string, ReadMessage[]> => {
    const map = new Map<string, ReadMessage[]>();
    for (const m of messages) map.set(m.headers['event-id'], [...(map.get(m.headers['event-id']) ?? []), m]);
    return map;
  };

  beforeAll(async () => {
    db = await createTestDatabase('outbox_relay');
    config = AppConfig.fromEnvironment({ DATABASE_URL: db.url, KAFKA_TOPIC_PREFIX: randomKafkaPrefix('outbox-relay') });
    dataSource = await createDataSource(config, [OutboxEventEntity]).initialize();
    kafka = new KafkaClient(config);
    outbox = new OutboxService(config);
    await kafka.ensureTopics();
    reader = await KafkaTopicReader.start(TEST_KAFKA_BROKERS, outbox.topic);
  });

  afterEach(async () => {
    await Promise.all(relays.splice(0).map((relay) => relay.stop()));
  });

  afterAll(async () => {
    await reader?.stop();
    await dataSource?.destroy();
    await db?.drop();
  });

  it('creates the domain event topic with 6 partitions and infinite retention, and its DLQ', async () => {
    await expect(kafka.ensureTopics()).resolves.toEqual([]); // idempotent
    const described = await kafka.withAdmin(async (admin) => ({
      metadata: await admin.fetchTopicMetadata({ topics: [outbox.topic, prefixed(config.kafka.topicPrefix, TOPICS.DOMAIN_EVENTS_DLQ)] }),
      configs: await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: 2, name: outbox.topic, configNames: ['retention.ms'] }] }),
    }));
    const partitions = Object.fromEntries(described.metadata.topics.map((t) => [t.name, t.partitions.length]));
    expect(partitions).toEqual({ [outbox.topic]: 6, [prefixed(config.kafka.topicPrefix, TOPICS.DOMAIN_EVENTS_DLQ)]: 1 });
    expect(described.configs.resources[0].configEntries[0]).toMatchObject({ configName: 'retention.ms', configValue: '-1' });
  });

  it('publishes committed events with key, headers and envelope, never those of a rolled-back transaction, and wakes on NOTIFY', async () => {
    const relay = newRelay();
    await relay.start();
    // Let the relay drain and go idle, so that only the notification can wake it.
    await expect(relay.snapshot()).resolves.toMatchObject({ running: true, listening: true });

    const started = Date.now();
    const committed = await append(
      [
        { type: 'issue.closed', actor: 1, projectId: 7, target: { type: 'Issue', id: 70, iid: 1, title: 'Bug' }, data: { state: 'closed' } },
        { type: 'user.created', actor: 1, data: { username: 'alice' } },
      ],
      { 'correlation-id': 'req-123' },
    );
    let rolledBack: DomainEvent[] = [];
    await expect(
      dataSource.transaction(async (manager) => {
        rolledBack = await outbox.append(manager, { type: 'issue.reopened', projectId: 7 } as UncheckedNewDomainEvent as NewDomainEvent);
        throw new Error('abort the transaction');
      }),
    ).rejects.toThrow('abort the transaction');
    const [after] = await append([{ type: 'issue.closed', projectId: 7, data: { n: 2 } }]);

    const ids = [...committed, after].map((e) => e.id);
    await reader.waitFor((messages) => ids.every((id) => byId(messages).has(id)), 10_000, 'the committed events');
    expect(Date.now() - started).toBeLessThan(5_000);
    const all = byId(await reader.readToEnd());

    expect(all.has(rolledBack[0].id)).toBe(false);
    const [issueMessage] = all.get(committed[0].id)!;
    expect(issueMessage.key).toBe('7');
    expect(issueMessage.headers).toEqual({ 'correlation-id': 'req-123', 'event-id': committed[0].id, 'event-type': 'issue.closed' });
    expect(JSON.parse(issueMessage.value!)).toEqual(committed[0]);
    const [instanceMessage] = all.get(committed[1].id)!;
    expect(instanceMessage.key).toBe('0');
    expect(JSON.parse(instanceMessage.value!)).toEqual(committed[1]);
    for (const id of ids) expect(all.get(id)).toHaveLength(1);

    const rows: Array<{ id: string; published: boolean }> = await dataSource.query(
      'SELECT id, published_at IS NOT NULL AS published FROM outbox_events WHERE id = ANY($1::uuid[])',
      [[...ids, rolledBack[0].id]],
    );
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.published)).toBe(true);
    await expect(relay.snapshot()).resolves.toMatchObject({ publishedTotal: 3, pending: 0, failing: false, lastError: null });
  });

  it('keeps the order of each key and publishes every event once while two relays run at the same time', async () => {
    // Rows written before the relays start, so both find work immediately.
    const keys = [11, 12, 13, 14];
    const written: DomainEvent[] = [];
    let n = 0;
    const writeTransactions = async (count: number): Promise<void> => {
      for (let t = 0; t < count; t++) {
        const batch = Array.from({ length: 10 }, () => ({ type: 'ordering.test', projectId: keys[n % keys.length], data: { n: n++ } }));
        written.push(...(await append(batch)));
      }
    };
    await writeTransactions(30);

    const first = newRelay({ batchSize: 25 });
    const second = newRelay({ batchSize: 25 });
    await Promise.all([first.start(), second.start()]);
    await writeTransactions(30); // and more while both run

    const ids = new Set(written.map((e) => e.id));
    await reader.waitFor((messages) => messages.filter((m) => ids.has(m.headers['event-id'])).length >= ids.size, 30_000, `${ids.size} events`);
    const mine = (await reader.readToEnd()).filter((m) => ids.has(m.headers['event-id']));

    // Exactly once.
    expect(mine).toHaveLength(written.length);
    expect(new Set(mine.map((m) => m.headers['event-id'])).size).toBe(written.length);
    const [a, b] = await Promise.all([first.snapshot(), second.snapshot()]);
    expect(a.publishedTotal + b.publishedTotal).toBe(written.length);

    for (const key of keys) {
      const ofKey = mine.filter((m) => m.key === String(key));
      // One key, one partition ...
      expect(new Set(ofKey.map((m) => m.partition)).size).toBe(1);
      // ... and in partition (offset) order the events come in the order they were written.
      const sequence = ofKey.sort((x, y) => Number(BigInt(x.offset) - BigInt(y.offset))).map((m) => (JSON.parse(m.value!) as DomainEvent).data.n as number);
      const expected = written.filter((e) => e.project_id === key).map((e) => e.data.n as number);
      expect(sequence).toEqual(expected);
    }
  });

  it('skips rows another relay holds and keeps later rows of the same key behind them', async () => {
    const [heldA, otherB, laterA] = await append([
      { type: 'lock.test', projectId: 21, data: { n: 1 } },
      { type: 'lock.test', projectId: 22, data: { n: 2 } },
      { type: 'lock.test', projectId: 21, data: { n: 3 } },
    ]);
    // Another relay in the middle of publishing `heldA`.
    const other = dataSource.createQueryRunner();
    await other.connect();
    await other.startTransaction();
    await other.query('SELECT id FROM outbox_events WHERE id = $1 FOR UPDATE', [heldA.id]);
    const relay = newRelay();
    try {
      await expect(relay.publishBatch()).resolves.toEqual({ claimed: 2, published: 1 });
      const published: Array<{ id: string }> = await dataSource.query('SELECT id FROM outbox_events WHERE id = ANY($1::uuid[]) AND published_at IS NOT NULL', [
        [heldA.id, otherB.id, laterA.id],
      ]);
      expect(published.map((r) => r.id)).toEqual([otherB.id]);
    } finally {
      await other.rollbackTransaction();
      await other.release();
    }
    // The other relay gave up: both rows of key 21 go out, in order.
    await expect(relay.publishBatch()).resolves.toEqual({ claimed: 2, published: 2 });
    await reader.waitFor((messages) => messages.some((m) => m.headers['event-id'] === laterA.id), 10_000, 'the held-back event');
    const ofKey = reader.messages.filter((m) => m.key === '21').map((m) => m.headers['event-id']);
    expect(ofKey).toEqual([heldA.id, laterA.id]);
  });

  it('stops gracefully and leaves unpublished rows for the next start', async () => {
    const relay = newRelay();
    await relay.start();
    await relay.stop();
    expect(relay.running).toBe(false);
    const [event] = await append([{ type: 'after.stop', projectId: 99 }]);
    const rows = await dataSource.query('SELECT published_at FROM outbox_events WHERE id = $1', [event.id]);
    expect(rows[0].published_at).toBeNull();

    await relay.start();
    await reader.waitFor((messages) => messages.some((m) => m.headers['event-id'] === event.id), 10_000, 'the event written while stopped');
  });
  it('woken from idle by a commit, lingers so that the commits of the next moments go out in the same batch', async () => {
    const relay = newRelay({ lingerMs: 3_000 });
    const batches: number[] = [];
    const publishBatch = relay.publishBatch.bind(relay);
    jest.spyOn(relay, 'publishBatch').mockImplementation(async () => {
      const result = await publishBatch();
      batches.push(result.published);
      return result;
    });
    // The relay's waits, to know when it lingers (a wait of `lingerMs` that a notification does not cut short).
    const waits: Array<[number, boolean]> = [];
    const relayWithSleep = relay as unknown as { sleep: (ms: number, onNotify: boolean) => Promise<void> };
    const sleep = relayWithSleep.sleep.bind(relay);
    relayWithSleep.sleep = (ms, onNotify) => {
      waits.push([ms, onNotify]);
      return sleep(ms, onNotify);
    };
    await relay.start();
    // Idle: its first claim found nothing and it sleeps until a notification.
    await eventually(() => (batches.length > 0 ? true : undefined), 'the first, empty claim');
    const [first] = await append([{ type: 'linger.first', projectId: 31 }]);
    await eventually(() => (waits.some(([ms, onNotify]) => ms === 3_000 && !onNotify) ? true : undefined), 'the relay lingering after the notification');
    const [second] = await append([{ type: 'linger.second', projectId: 32 }]);
    await reader.waitFor((messages) => [first.id, second.id].every((id) => byId(messages).has(id)), 10_000, 'both events');
    // The batch that sent them is counted once its transaction commits, just after Kafka has them.
    await eventually(() => (batches.some((n) => n > 0) ? true : undefined), 'the publishing batch to commit');
    // One claim took both: the relay waited for the second commit instead of publishing the first alone.
    expect(batches.filter((n) => n > 0)).toEqual([2]);
  });
});
