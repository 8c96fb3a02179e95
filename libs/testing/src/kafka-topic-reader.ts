import { randomBytes } from 'node:crypto';
import { Consumer, IHeaders, Kafka, logLevel } from 'kafkajs';
import { testEnvironment } from './test-environment';

/** The shared development broker (scripts/services.sh), unless TEST_KAFKA_BROKERS says otherwise. */
export const TEST_KAFKA_BROKERS = testEnvironment.kafkaBrokers();

/** A topic/group prefix unique to one test file, so files can share a broker in parallel. */
export const randomKafkaPrefix = (label: string): string => `test-${label.replace(/[^a-zA-Z0-9-]/g, '-').slice(0, 24)}-${randomBytes(4).toString('hex')}`;

export interface ReadMessage {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: string | null;
  headers: Record<string, string>;
}

const decode = (headers: IHeaders | undefined): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers ?? {})
      .map(([name, value]) => [name, Array.isArray(value) ? value[0] : value] as const)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, Buffer.isBuffer(value) ? value.toString('utf8') : String(value)]),
  );

/**
 * Reads a topic from the beginning with a throw-away consumer group and keeps every message,
 * for assertions on what was actually published. The topic must exist.
 */
export class KafkaTopicReader {
  readonly messages: ReadMessage[] = [];

  private constructor(
    private readonly kafka: Kafka,
    private readonly consumer: Consumer,
    readonly topic: string,
  ) {}

  static async start(brokers: string[], topic: string): Promise<KafkaTopicReader> {
    const kafka = new Kafka({ clientId: 'test-topic-reader', brokers, logLevel: logLevel.NOTHING });
    const consumer = kafka.consumer({
      groupId: `test-reader-${randomBytes(6).toString('hex')}`,
      allowAutoTopicCreation: false,
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
    });
    const reader = new KafkaTopicReader(kafka, consumer, topic);
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ topic: from, partition, message }) => {
        reader.messages.push({
          topic: from,
          partition,
          offset: message.offset,
          key: message.key?.toString('utf8') ?? null,
          value: message.value?.toString('utf8') ?? null,
          headers: decode(message.headers),
        });
      },
    });
    return reader;
  }

  /** Polls until `predicate(messages)` holds; throws after `timeoutMs` with what was read. */
  async waitFor(predicate: (messages: ReadMessage[]) => boolean, timeoutMs = 15_000, what = 'the expected messages'): Promise<ReadMessage[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.messages)) {
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} on ${this.topic} (read ${this.messages.length})`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.messages;
  }

  /** Waits until every partition has been read up to its current end: the whole topic as of now. */
  async readToEnd(timeoutMs = 15_000): Promise<ReadMessage[]> {
    const admin = this.kafka.admin();
    await admin.connect();
    let ends: Array<{ partition: number; high: string; low: string }>;
    try {
      ends = await admin.fetchTopicOffsets(this.topic);
    } finally {
      await admin.disconnect();
    }
    return this.waitFor(
      (messages) =>
        ends.every(({ partition, high, low }) => {
          if (BigInt(high) <= BigInt(low)) return true;
          const last = BigInt(high) - 1n;
          return messages.some((m) => m.partition === partition && BigInt(m.offset) >= last);
        }),
      timeoutMs,
      'the end of every partition',
    );
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect().catch(() => undefined);
  }
}
