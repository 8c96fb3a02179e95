import { Admin, ITopicConfig } from 'kafkajs';
import { prefixed, TOPICS } from './core/topics.constants';

/** Partitions of the domain event stream. Key = project id, so this bounds consumer parallelism. */
export const DOMAIN_EVENTS_PARTITIONS = 6;

export interface TopicLayoutOptions {
  /** 1 for the single-node development broker; 3 in a real cluster. */
  replicationFactor?: number;
}

/** The topics every process of the service needs, with their settings. */
export function domainTopicConfigs(prefix: string, options: TopicLayoutOptions = {}): ITopicConfig[] {
  const replicationFactor = options.replicationFactor ?? 1;
  return [
    {
      topic: prefixed(prefix, TOPICS.DOMAIN_EVENTS),
      numPartitions: DOMAIN_EVENTS_PARTITIONS,
      replicationFactor,
      configEntries: [
        // Infinite retention: the stream is the source of truth of every projection
        // (events, resource events, alert lifecycle). A projection is rebuilt by replaying the
        // topic from offset 0, so Kafka must never delete old segments by age or by size.
        { name: 'retention.ms', value: '-1' },
        { name: 'retention.bytes', value: '-1' },
        { name: 'cleanup.policy', value: 'delete' },
      ],
    },
    {
      // Poison messages with the reason in their headers; kept until someone looks at them.
      topic: prefixed(prefix, TOPICS.DOMAIN_EVENTS_DLQ),
      numPartitions: 1,
      replicationFactor,
      configEntries: [
        { name: 'retention.ms', value: '-1' },
        { name: 'retention.bytes', value: '-1' },
      ],
    },
  ];
}

/**
 * Creates the topics that do not exist yet and waits for their leaders. Idempotent, also
 * when several processes race to create the same topic. Returns the names it created.
 */
export async function ensureTopics(admin: Admin, topics: ITopicConfig[]): Promise<string[]> {
  const existing = new Set(await admin.listTopics());
  const missing = topics.filter((t) => !existing.has(t.topic));
  if (missing.length === 0) return [];
  // Resolves to false (no throw) when every "missing" topic was created meanwhile by someone else.
  const created = await admin.createTopics({ topics: missing, waitForLeaders: true, timeout: 10_000 });
  return created ? missing.map((t) => t.topic) : [];
}
