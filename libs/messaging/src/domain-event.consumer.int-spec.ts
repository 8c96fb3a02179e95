import { AppConfig } from '@app/config';
import { KafkaTopicReader, randomKafkaPrefix, TEST_KAFKA_BROKERS } from '@app/testing';
import { Partitioners, Producer } from 'kafkajs';
import { buildDomainEvent, DomainEvent } from './core/domain-event';
import { DLQ_HEADERS, DomainEventConsumer, DomainEventContext } from './domain-event.consumer';
import { KafkaClient } from './kafka.factory';
import { CONSUMER_GROUPS, TOPICS } from './core/topics.constants';
import { TransientError } from './transient-error';

jest.setTimeout(60_000);

describe(DomainEventConsumer.name, () => {
  let kafka: KafkaClient;
  let producer: Producer;
  let dlqReader: KafkaTopicReader;
  let consumer: DomainEventConsumer | undefined;

  const topic = (): string => kafka.topic(TOPICS.DOMAIN_EVENTS);
  /** Writes raw messages straight to the topic, as any producer could. All on key "5": one partition, in order. */
  const produce = async (...values: Array<string | DomainEvent>): Promise<void> => {
    await producer.send({
      topic: topic(),
      messages: values.map((value) => ({
        key: '5',
        value: typeof value === 'string' ? value : JSON.stringify(value),
        headers: { 'correlation-id': 'corr-1' },
      })),
    });
  };

  beforeAll(async () => {
    kafka = new KafkaClient(AppConfig.fromEnvironment({ KAFKA_BROKERS: TEST_KAFKA_BROKERS.join(','), KAFKA_TOPIC_PREFIX: randomKafkaPrefix('consumer') }));
    await kafka.ensureTopics();
    producer = kafka.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    dlqReader = await KafkaTopicReader.start(TEST_KAFKA_BROKERS, kafka.topic(TOPICS.DOMAIN_EVENTS_DLQ));
  });

  afterEach(async () => {
    await consumer?.stop();
    consumer = undefined;
  });

  afterAll(async () => {
    await dlqReader?.stop();
    await producer?.disconnect();
  });

  it('dead-letters poison messages with the reason and keeps handling the messages after them', async () => {
    const poison = buildDomainEvent({ type: 'test.always_fails', projectId: 5 });
    const flaky = buildDomainEvent({ type: 'test.fails_once', projectId: 5 });
    const slowDependency = buildDomainEvent({ type: 'test.transient', projectId: 5 });
    const good = buildDomainEvent({ type: 'test.good', projectId: 5, data: { n: 1 } });
    const calls = new Map<string, number>();
    const handled: Array<{ event: DomainEvent; context: DomainEventContext }> = [];

    consumer = new DomainEventConsumer(kafka, {
      groupId: CONSUMER_GROUPS.PROJECTOR,
      maxAttempts: 3,
      retryBackoff: { initialMs: 10, maxMs: 50, jitter: 0 },
      handler: async (event, context) => {
        const call = (calls.get(event.id) ?? 0) + 1;
        calls.set(event.id, call);
        if (event.id === poison.id) throw new Error('projection exploded');
        if (event.id === flaky.id && call === 1) throw new Error('first try fails');
        // More failures than maxAttempts, but transient: retried, not dead-lettered.
        if (event.id === slowDependency.id && call <= 5) throw new TransientError('database unavailable');
        handled.push({ event, context });
      },
    });
    await produce('{"this is": not json', poison, flaky, slowDependency, JSON.stringify({ type: 'test.no_id' }), good);
    await consumer.start();

    await dlqReader.waitFor((messages) => messages.length >= 3, 20_000, 'three dead letters');
    const deadline = Date.now() + 20_000;
    while (!handled.some((h) => h.event.id === good.id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

    // The good, the flaky and the transiently failing events were handled, in order.
    expect(handled.map((h) => h.event.id)).toEqual([flaky.id, slowDependency.id, good.id]);
    expect(handled[2].event).toEqual(good);
    expect(calls.get(poison.id)).toBe(3);
    expect(calls.get(flaky.id)).toBe(2);
    expect(calls.get(slowDependency.id)).toBe(6);

    // The context tells where the message came from.
    const goodContext = handled[2].context;
    expect(goodContext).toMatchObject({ topic: topic(), key: '5', headers: { 'correlation-id': 'corr-1' }, attempt: 1 });
    expect(handled[0].context.attempt).toBe(2);

    // Three dead letters: invalid JSON, the poison event after 3 tries, the envelope without id.
    const dead = dlqReader.messages;
    expect(dead).toHaveLength(3);
    const partition = String(goodContext.partition);
    const goodOffset = BigInt(goodContext.offset);
    expect(dead.map((m) => m.headers[DLQ_HEADERS.OFFSET])).toEqual([goodOffset - 5n, goodOffset - 4n, goodOffset - 1n].map(String));
    for (const m of dead) {
      expect(m.key).toBe('5');
      expect(m.headers).toMatchObject({
        'correlation-id': 'corr-1',
        [DLQ_HEADERS.SOURCE_TOPIC]: topic(),
        [DLQ_HEADERS.PARTITION]: partition,
        [DLQ_HEADERS.CONSUMER_GROUP]: kafka.groupId(CONSUMER_GROUPS.PROJECTOR),
      });
    }
    expect(dead[0].value).toBe('{"this is": not json');
    expect(dead[0].headers[DLQ_HEADERS.REASON]).toMatch(/^invalid envelope: message value is not valid JSON/);
    expect(JSON.parse(dead[1].value!)).toEqual(poison);
    expect(dead[1].headers[DLQ_HEADERS.REASON]).toBe('handler failed after 3 attempts: projection exploded');
    expect(dead[2].headers[DLQ_HEADERS.REASON]).toMatch(/^invalid envelope: id must be a uuid; version must be a positive integer; occurred_at/);
    expect(consumer.snapshot()).toMatchObject({ running: true, handled: 3, deadLettered: 3 });

    // Offsets are committed once handled: a new consumer of the same group starts after `good`.
    await consumer.stop();
    const committed = await kafka.withAdmin((admin) => admin.fetchOffsets({ groupId: kafka.groupId(CONSUMER_GROUPS.PROJECTOR), topics: [topic()] }));
    const offsets = committed[0].partitions.find((p) => String(p.partition) === partition);
    expect(offsets?.offset).toBe(String(goodOffset + 1n));

    const later = buildDomainEvent({ type: 'test.later', projectId: 5 });
    const seen: string[] = [];
    consumer = new DomainEventConsumer(kafka, { groupId: CONSUMER_GROUPS.PROJECTOR, handler: async (event) => void seen.push(event.id) });
    await consumer.start();
    await produce(later);
    const until = Date.now() + 20_000;
    while (!seen.includes(later.id) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([later.id]);
  });
  it('hands typed handlers only the types they list, and dead-letters a listed event whose data does not match the catalogue', async () => {
    const target = { type: 'badge', id: 1, title: 'b' };
    const data = { badge_id: 1, kind: 'project', name: 'b', link_url: 'http://l', image_url: 'http://i' };
    const misshapen = buildDomainEvent({ type: 'badge.created', projectId: 5, target, data: { ...data, badge_id: 'one' } });
    const unlisted = buildDomainEvent({ type: 'issue.opened', projectId: 5, data: { not: 'an issue' } });
    const good = buildDomainEvent({ type: 'badge.created', projectId: 5, target, data });
    const handled: string[] = [];
    consumer = new DomainEventConsumer(kafka, {
      groupId: CONSUMER_GROUPS.ALERT_ENGINE,
      handlers: {
        'badge.created': async (event) => {
          // Typed by the catalogue: no cast.
          const id: number = event.data.badge_id;
          handled.push(`${event.id}:${id}`);
        },
      },
    });
    await produce(misshapen, unlisted, good);
    await consumer.start();

    const isMisshapen = (value: string | null) => value !== null && value.includes(misshapen.id);
    await dlqReader.waitFor((messages) => messages.some((m) => isMisshapen(m.value)), 20_000, 'the misshapen event dead-lettered');
    const until = Date.now() + 20_000;
    while (!handled.includes(`${good.id}:1`) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));

    expect(handled).toEqual([`${good.id}:1`]);
    // (The group also reads what the other tests left on the topic: only this test's events count here.)
    const dead = dlqReader.messages.filter((m) => m.value !== null && (isMisshapen(m.value) || m.value.includes(unlisted.id) || m.value.includes(good.id)));
    expect(dead).toHaveLength(1);
    expect(dead[0].headers[DLQ_HEADERS.REASON]).toMatch(/^invalid data of badge\.created: data\.badge_id /);
    expect(dead[0].headers[DLQ_HEADERS.CONSUMER_GROUP]).toBe(kafka.groupId(CONSUMER_GROUPS.ALERT_ENGINE));
  });
});

describe(`${DomainEventConsumer.name} in batch mode`, () => {
  let kafka: KafkaClient;
  let producer: Producer;
  let dlqReader: KafkaTopicReader;
  let consumer: DomainEventConsumer | undefined;

  const topic = (): string => kafka.topic(TOPICS.DOMAIN_EVENTS);
  const produce = async (...values: Array<string | DomainEvent>): Promise<void> => {
    await producer.send({ topic: topic(), messages: values.map((value) => ({ key: '7', value: typeof value === 'string' ? value : JSON.stringify(value) })) });
  };
  const waitUntil = async (done: () => boolean, what: string): Promise<void> => {
    const deadline = Date.now() + 20_000;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const committedOffset = async (partition: number): Promise<string | undefined> => {
    const committed = await kafka.withAdmin((admin) => admin.fetchOffsets({ groupId: kafka.groupId(CONSUMER_GROUPS.PROJECTOR), topics: [topic()] }));
    return committed[0].partitions.find((p) => p.partition === partition)?.offset;
  };

  beforeAll(async () => {
    kafka = new KafkaClient(AppConfig.fromEnvironment({ KAFKA_BROKERS: TEST_KAFKA_BROKERS.join(','), KAFKA_TOPIC_PREFIX: randomKafkaPrefix('batch') }));
    await kafka.ensureTopics();
    producer = kafka.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    dlqReader = await KafkaTopicReader.start(TEST_KAFKA_BROKERS, kafka.topic(TOPICS.DOMAIN_EVENTS_DLQ));
  });

  afterEach(async () => {
    await consumer?.stop();
    consumer = undefined;
  });

  afterAll(async () => {
    await dlqReader?.stop();
    await producer?.disconnect();
  });

  it('hands the valid events of a batch over at once, dead-letters invalid ones, and falls back to one by one when a batch fails', async () => {
    const before = Array.from({ length: 5 }, (_, n) => buildDomainEvent({ type: 'test.good', projectId: 7, data: { n } }));
    const poison = buildDomainEvent({ type: 'test.always_fails', projectId: 7 });
    const after = Array.from({ length: 3 }, (_, n) => buildDomainEvent({ type: 'test.good', projectId: 7, data: { n: 10 + n } }));
    await produce(...before, '{"broken', poison, ...after);

    const batches: Array<{ ids: string[]; firstOffset: string; lastOffset: string }> = [];
    const single: string[] = [];
    const committed: string[] = [];
    let lastContext: DomainEventContext | undefined;
    consumer = new DomainEventConsumer(kafka, {
      groupId: CONSUMER_GROUPS.PROJECTOR,
      maxAttempts: 2,
      retryBackoff: { initialMs: 10, maxMs: 20, jitter: 0 },
      maxBatchSize: 1_000,
      batchHandler: async (events, context) => {
        batches.push({ ids: events.map((e) => e.id), firstOffset: context.firstOffset, lastOffset: context.lastOffset });
        if (events.some((e) => e.id === poison.id)) throw new Error('batch contains a poison event');
        committed.push(...events.map((e) => e.id));
      },
      handler: async (event, context) => {
        single.push(event.id);
        lastContext = context;
        if (event.id === poison.id) throw new Error('projection exploded');
        committed.push(event.id);
      },
    });
    await consumer.start();
    const expected = [...before, ...after].map((e) => e.id);
    await waitUntil(() => expected.every((id) => committed.includes(id)), 'every good event');
    await dlqReader.waitFor((messages) => messages.length >= 2, 20_000, 'two dead letters');

    // Every good event handled exactly once, in order; the poison one went to the DLQ with its reason.
    expect(committed).toEqual(expected);
    expect(batches[0].ids.slice(0, 5)).toEqual(before.map((e) => e.id));
    expect(batches.flatMap((b) => b.ids)).not.toContain(undefined);
    expect(single.filter((id) => id === poison.id)).toHaveLength(2);
    const dead = dlqReader.messages;
    expect(dead).toHaveLength(2);
    expect(dead[0].value).toBe('{"broken');
    expect(dead[0].headers[DLQ_HEADERS.REASON]).toMatch(/^invalid envelope: message value is not valid JSON/);
    expect(JSON.parse(dead[1].value!)).toEqual(poison);
    expect(dead[1].headers[DLQ_HEADERS.REASON]).toBe('handler failed after 2 attempts: projection exploded');
    expect(consumer.snapshot()).toMatchObject({ handled: 8, deadLettered: 2 });

    // Offsets committed after the batch: past the last event.
    const partition = Number(dead[1].headers[DLQ_HEADERS.PARTITION]);
    await consumer.stop();
    const lastOffset = BigInt(dead[1].headers[DLQ_HEADERS.OFFSET]!) + BigInt(after.length);
    expect(lastContext?.partition).toBe(partition);
    expect(await committedOffset(partition)).toBe(String(lastOffset + 1n));

    // A transient failure retries the whole batch (not one by one), and nothing is committed before it succeeds.
    const next = Array.from({ length: 4 }, (_, n) => buildDomainEvent({ type: 'test.good', projectId: 7, data: { n: 20 + n } }));
    let failures = 0;
    const retried: string[][] = [];
    const perMessage: string[] = [];
    consumer = new DomainEventConsumer(kafka, {
      groupId: CONSUMER_GROUPS.PROJECTOR,
      retryBackoff: { initialMs: 10, maxMs: 20, jitter: 0 },
      batchHandler: async (events) => {
        retried.push(events.map((e) => e.id));
        if (failures++ < 3) throw new TransientError('database unavailable');
      },
      handler: async (event) => void perMessage.push(event.id),
    });
    await produce(...next);
    await consumer.start();
    await waitUntil(() => retried.length >= 4 && retried.flat().includes(next[3].id), 'the retried batch');
    await consumer.stop();
    expect(perMessage).toEqual([]);
    expect(retried.slice(0, 4).every((ids) => ids[0] === next[0].id)).toBe(true);
    expect(await committedOffset(partition)).toBe(String(lastOffset + 5n));
  });
});
