import { Injectable, Logger, LoggerService } from '@nestjs/common';
import { AppConfig, KafkaConfig } from '@app/config';
import { Admin, Kafka, logCreator, LogEntry, logLevel, Partitioners, Producer, RetryOptions } from 'kafkajs';
import { domainTopicConfigs, ensureTopics } from './kafka-topics';
import { prefixed } from './core/topics.constants';

/**
 * Client-wide retry of kafkajs (connecting, metadata, admin, consumer restarts): 100 ms doubling
 * to 1 s, five times, so an operation fails within a few seconds when no broker answers. Callers
 * (outbox relay, consumers) then apply their own unbounded backoff; kafkajs nests retries
 * (a send retries, and each try retries its connection), so these bounds stay small.
 */
export const KAFKA_RETRY: RetryOptions = { initialRetryTime: 100, maxRetryTime: 1_000, retries: 5, multiplier: 2 };

/** Retry of one producer `send` (leader elections, coordinator loading) on top of the connection retry. */
export const PRODUCER_RETRY: RetryOptions = { initialRetryTime: 100, maxRetryTime: 1_000, retries: 2, multiplier: 2 };

/** How long an identical kafkajs message is kept quiet after it was logged once. */
const REPEAT_WINDOW_MS = 60_000;

/**
 * Messages that are expected while a broker is unreachable or being restarted. Our own code
 * (relay, consumers) reports an outage once; kafkajs would repeat these on every retry.
 */
const EXPECTED_NOISE: ReadonlyArray<RegExp> = [
  /^Connection error/,
  /^Connection timeout/,
  /^Failed to connect to seed broker/,
  /^Failed to connect to broker/,
  /^Failed to send messages/,
  /Limiting retries for the idempotent producer/,
  // Error responses kafkajs retries itself; when they persist, the caller gets (and reports) the error.
  /^Response \w+\(key: \d+/,
  /The group is rebalancing/,
];

/**
 * Routes kafkajs logging to a Nest logger (never the console): errors and warnings only,
 * expected connection noise demoted to debug, and an identical message at most once per minute.
 */
export function createKafkaLogCreator(logger: LoggerService = new Logger('Kafka')): logCreator {
  const lastLogged = new Map<string, number>();
  return () =>
    ({ namespace, level, log }: LogEntry) => {
      const { message, timestamp: _timestamp, logger: _logger, ...extra } = log as LogEntry['log'] & { logger?: string };
      const text = `${namespace ? `[${namespace}] ` : ''}${message}`;
      const details = Object.keys(extra).length > 0 ? ` ${safeJson(extra)}` : '';
      if (level > logLevel.WARN || EXPECTED_NOISE.some((pattern) => pattern.test(message))) {
        logger.debug?.(`${text}${details}`);
        return;
      }
      const now = Date.now();
      const key = `${level}:${text}`;
      if ((lastLogged.get(key) ?? -Infinity) > now - REPEAT_WINDOW_MS) return;
      if (lastLogged.size > 1_000) lastLogged.clear();
      lastLogged.set(key, now);
      if (level === logLevel.ERROR) logger.error(`${text}${details}`);
      else logger.warn(`${text}${details}`);
    };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return '[unserializable]';
  }
}

/** A kafkajs client for the configured brokers, quiet and routed to the Nest logger. */
export function createKafka(config: KafkaConfig, logger?: LoggerService): Kafka {
  return new Kafka({
    clientId: config.clientId,
    brokers: config.brokers,
    connectionTimeout: 3_000,
    requestTimeout: 30_000,
    retry: KAFKA_RETRY,
    logLevel: logLevel.WARN,
    logCreator: createKafkaLogCreator(logger),
  });
}

/**
 * Idempotent producer: the broker de-duplicates kafkajs' internal retries; `acks` is forced
 * to all (-1) by kafkajs; one request in flight keeps per-partition order across retries.
 * The Java-compatible (murmur2) partitioner sends one key to the same partition as any
 * other Kafka client would.
 */
export function createIdempotentProducer(kafka: Kafka): Producer {
  return kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
    retry: PRODUCER_RETRY,
  });
}

/** The application's Kafka client (one per process) plus naming helpers for the configured prefix. */
@Injectable()
export class KafkaClient {
  readonly kafka: Kafka;

  constructor(readonly config: AppConfig) {
    this.kafka = createKafka(config.kafka);
  }

  get topicPrefix(): string {
    return this.config.kafka.topicPrefix;
  }

  /** `name` (e.g. `TOPICS.DOMAIN_EVENTS`) with the configured prefix. */
  topic(name: string): string {
    return prefixed(this.topicPrefix, name);
  }

  /** Consumer group `name` (e.g. `CONSUMER_GROUPS.PROJECTOR`) with the configured prefix. */
  groupId(name: string): string {
    return prefixed(this.topicPrefix, name);
  }

  createIdempotentProducer(): Producer {
    return createIdempotentProducer(this.kafka);
  }

  /** Creates the domain event topic and its DLQ for the configured prefix when missing (idempotent). */
  ensureTopics(): Promise<string[]> {
    return this.withAdmin((admin) => ensureTopics(admin, domainTopicConfigs(this.topicPrefix)));
  }

  /** Runs `work` with a connected admin client and disconnects it afterwards. */
  async withAdmin<T>(work: (admin: Admin) => Promise<T>): Promise<T> {
    const admin = this.kafka.admin({ retry: KAFKA_RETRY });
    await admin.connect();
    try {
      return await work(admin);
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }
}
