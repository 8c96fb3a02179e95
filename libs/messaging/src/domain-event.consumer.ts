import { Logger } from '@nestjs/common';
import { Consumer, EachBatchPayload, EachMessagePayload, IHeaders, KafkaMessage, Producer } from 'kafkajs';
import { BackoffOptions, computeBackoff, DEFAULT_BACKOFF } from './backoff';
import type { CataloguedEvent, DomainEventType } from './catalogue/domain-event-catalogue';
import { DomainEvent } from './core/domain-event';
import { eventDataProblems, parseDomainEvent } from './catalogue/domain-event.validator';
import { KAFKA_RETRY, KafkaClient } from './kafka.factory';
import { TOPICS } from './core/topics.constants';
import { isTransientError } from './transient-error';

/** Headers added to a message copied to the dead-letter topic. */
export const DLQ_HEADERS = {
  REASON: 'dlq-reason',
  SOURCE_TOPIC: 'dlq-source-topic',
  PARTITION: 'dlq-partition',
  OFFSET: 'dlq-offset',
  CONSUMER_GROUP: 'dlq-consumer-group',
  FAILED_AT: 'dlq-failed-at',
} as const;

/** Where a message came from: for idempotency keys, logs and metrics. */
export interface DomainEventContext {
  topic: string;
  partition: number;
  /** Offset of the message in its partition (a decimal string, as kafkajs gives it). */
  offset: string;
  key: string | null;
  /** Message headers decoded as UTF-8 (first value of repeated headers). */
  headers: Record<string, string>;
  /** Broker or producer timestamp, milliseconds since the epoch, as a string. */
  timestamp: string;
  /** 1 on the first try of this delivery, 2 on the first retry, ... */
  attempt: number;
  /** Tells the group coordinator this consumer is alive (for long handlers). */
  heartbeat(): Promise<void>;
}

export type DomainEventHandler = (event: DomainEvent, context: DomainEventContext) => Promise<void>;

/** The handler of one catalogued type: its event's `data` has been checked against the catalogue's schema. */
export type CataloguedEventHandler<TType extends DomainEventType> = (event: CataloguedEvent<TType>, context: DomainEventContext) => Promise<void>;

/** Typed handlers by event type: a consumer given these receives only the types it lists. */
export type DomainEventHandlers = { readonly [TType in DomainEventType]?: CataloguedEventHandler<TType> };

/** Where a batch came from: every event of a batch is from one partition, in offset order. */
export interface DomainEventBatchContext {
  topic: string;
  partition: number;
  /** Offsets of the first and last message of the batch (invalid envelopes included). */
  firstOffset: string;
  lastOffset: string;
  /** 1 on the first try of this batch, 2 on the first retry (after a transient failure), ... */
  attempt: number;
  heartbeat(): Promise<void>;
}

/**
 * Handles the valid events of one partition's batch, in order, all or nothing: resolving
 * commits the batch; throwing a non-transient error makes the consumer handle the batch
 * again one message at a time with `handler` (so a poison event is dead-lettered alone).
 */
export type DomainEventBatchHandler = (events: DomainEvent[], context: DomainEventBatchContext) => Promise<void>;

/**
 * What a consumer hands its events to: either typed `handlers` for the types it acts on (the
 * others are skipped unread), or one `handler` (and optionally a `batchHandler`) for every valid
 * event, for the consumers whose job covers every event (the projector, system hooks).
 */
export type DomainEventConsumerOptions = DomainEventConsumerTuning &
  (
    | { handlers: DomainEventHandlers; handler?: never; batchHandler?: never }
    | {
        /** Every valid event (catalogued ones with their `data` checked, and types the catalogue does not know). */
        handler: DomainEventHandler;
        /**
         * Batch mode: the valid events of each fetched batch go to this handler (in chunks of at most
         * `maxBatchSize`, per partition) instead of one by one to `handler`; `handler` stays the
         * fallback for a batch that fails.
         */
        batchHandler?: DomainEventBatchHandler;
        handlers?: never;
      }
  );

export interface DomainEventConsumerTuning {
  /** Consumer group, unprefixed (e.g. `CONSUMER_GROUPS.PROJECTOR`); the configured prefix is added. */
  groupId: string;
  /** Topic, unprefixed. Default `TOPICS.DOMAIN_EVENTS`. */
  topic?: string;
  /** Dead-letter topic, unprefixed. Default `TOPICS.DOMAIN_EVENTS_DLQ`. */
  dlqTopic?: string;
  /** Most messages per `batchHandler` call. Default 2,000. */
  maxBatchSize?: number;
  /** Tries of a failing handler before the message goes to the DLQ. Default 3. */
  maxAttempts?: number;
  /** Delay between tries. Default 100 ms doubling to 2 s. */
  retryBackoff?: BackoffOptions;
  /**
   * Failures that are not the message's fault are retried until they succeed (the partition
   * waits) instead of being dead-lettered. Default `isTransientError`.
   */
  isTransient?: (error: unknown) => boolean;
  /** Start from the beginning of the topic when the group has no committed offset. Default true. */
  fromBeginning?: boolean;
  /** Partitions processed in parallel (order holds within each). Default 1. */
  partitionsConsumedConcurrently?: number;
}

export interface DomainEventConsumerSnapshot {
  running: boolean;
  handled: number;
  deadLettered: number;
  lastError: { message: string; at: string } | null;
}

/** Decodes kafkajs headers to strings (first value of repeated headers). */
export function decodeHeaders(headers: IHeaders | undefined): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first !== null) decoded[name] = Buffer.isBuffer(first) ? first.toString('utf8') : String(first);
  }
  return decoded;
}

/** The context of a kafkajs `eachMessage` payload. */
export function messageContextOf(payload: EachMessagePayload, attempt = 1): DomainEventContext {
  const { topic, partition, message, heartbeat } = payload;
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key ? message.key.toString('utf8') : null,
    headers: decodeHeaders(message.headers),
    timestamp: message.timestamp,
    attempt,
    heartbeat,
  };
}

const invalidDataReason = (event: DomainEvent, problems: string[]): string => `invalid data of ${event.type}: ${problems.join('; ')}`;

const RETRY_BACKOFF: BackoffOptions = { initialMs: 100, maxMs: 2_000, factor: 2, jitter: 0.2 };
const MAX_REASON_LENGTH = 2_000;

/** The handler of an event of a type `handlers` lists (its `data` checked before). */
const dispatcherOf =
  (handlers: DomainEventHandlers): DomainEventHandler =>
  (event, context) =>
    // The one place an event becomes typed: its type is listed and its data matched the type's schema.
    (handlers[event.type as DomainEventType] as CataloguedEventHandler<DomainEventType>)(event as CataloguedEvent, context);

/**
 * Runs one kafkajs consumer that hands every valid domain event of `topic` to `handler` (or, with
 * `handlers`, each event of a listed type to its handler; other types are skipped).
 *
 * - An invalid envelope (not JSON, missing fields), or an event of a catalogued type whose `data`
 *   does not match the catalogue's schema, goes straight to the dead-letter topic.
 * - A failing handler is retried `maxAttempts` times, then the original message (key, value,
 *   headers) is copied to the dead-letter topic with `dlq-*` headers and consumption moves on.
 *   Transient failures (`isTransient`) are retried until they succeed instead.
 * - The offset of a message is committed only after its handler or its DLQ copy finished, so
 *   a crash means redelivery: handlers must be idempotent (e.g. by event id).
 * - Kafka being unreachable at start or later is retried; the consumer never stops on its own.
 */
export class DomainEventConsumer {
  private readonly logger: Logger;
  private readonly topic: string;
  private readonly dlqTopic: string;
  private readonly groupId: string;
  private readonly maxAttempts: number;
  private readonly retryBackoff: BackoffOptions;
  private readonly isTransient: (error: unknown) => boolean;
  private readonly handler: DomainEventHandler;
  /** Whether events of a type go to the handler (with `handlers`: the listed types only). */
  private readonly accepts: (type: string) => boolean;

  private consumer: Consumer | null = null;
  private producer: Producer | null = null;
  private starting: Promise<void> | null = null;
  private stopping = false;
  private readonly sleepers = new Set<() => void>();
  private reportedFailure = false;
  private reportedCrash = false;

  private handled = 0;
  private deadLettered = 0;
  private lastError: { message: string; at: string } | null = null;

  constructor(
    private readonly kafka: KafkaClient,
    private readonly options: DomainEventConsumerOptions,
  ) {
    this.topic = kafka.topic(options.topic ?? TOPICS.DOMAIN_EVENTS);
    this.dlqTopic = kafka.topic(options.dlqTopic ?? TOPICS.DOMAIN_EVENTS_DLQ);
    this.groupId = kafka.groupId(options.groupId);
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 3);
    this.retryBackoff = options.retryBackoff ?? RETRY_BACKOFF;
    this.isTransient = options.isTransient ?? isTransientError;
    this.logger = new Logger(`DomainEventConsumer:${options.groupId}`);
    const { handlers } = options;
    this.handler = handlers ? dispatcherOf(handlers) : options.handler;
    this.accepts = handlers ? (type) => Object.hasOwn(handlers, type) : () => true;
  }

  get running(): boolean {
    return this.consumer !== null;
  }

  snapshot(): DomainEventConsumerSnapshot {
    return { running: this.running, handled: this.handled, deadLettered: this.deadLettered, lastError: this.lastError };
  }

  /**
   * Connects, subscribes and starts consuming. Resolves once the consumer runs; while Kafka is
   * unreachable it keeps retrying with backoff (resolves early if `stop()` is called).
   */
  start(): Promise<void> {
    this.stopping = false;
    this.starting ??= this.connectUntilRunning();
    return this.starting;
  }

  /** Finishes the message in progress, commits its offset, and disconnects. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const wake of this.sleepers) wake();
    await this.starting?.catch(() => undefined);
    this.starting = null;
    await this.disconnect();
  }

  private async connectUntilRunning(): Promise<void> {
    for (let attempt = 1; !this.stopping; attempt++) {
      try {
        await this.connect();
        if (attempt > 1) this.logger.log(`consuming ${this.topic} after ${attempt - 1} failed attempts to connect`);
        return;
      } catch (error) {
        await this.disconnect();
        this.recordError(error);
        if (attempt === 1) this.logger.warn(`cannot start consuming ${this.topic}, retrying with backoff: ${this.lastError?.message}`);
        await this.sleep(computeBackoff(attempt, DEFAULT_BACKOFF));
      }
    }
  }

  private async connect(): Promise<void> {
    await this.kafka.ensureTopics();
    const producer = this.kafka.createIdempotentProducer();
    this.producer = producer;
    const consumer = this.kafka.kafka.consumer({
      groupId: this.groupId,
      sessionTimeout: 30_000,
      heartbeatInterval: 3_000,
      allowAutoTopicCreation: false,
      retry: {
        ...KAFKA_RETRY,
        restartOnFailure: async (error) => {
          this.recordError(error);
          // Once per outage: kafkajs restarts the consumer every few seconds while Kafka is down.
          if (!this.reportedCrash) this.logger.warn(`consumer of ${this.topic} failed and restarts until it can: ${this.lastError?.message}`);
          else this.logger.debug(`consumer of ${this.topic} failed again: ${this.lastError?.message}`);
          this.reportedCrash = true;
          return !this.stopping;
        },
      },
    });
    consumer.on(consumer.events.GROUP_JOIN, () => {
      if (this.reportedCrash) this.logger.log(`consumer of ${this.topic} rejoined group ${this.groupId}`);
      this.reportedCrash = false;
    });
    this.consumer = consumer;
    await producer.connect();
    await consumer.connect();
    await consumer.subscribe({ topics: [this.topic], fromBeginning: this.options.fromBeginning ?? true });
    const partitionsConsumedConcurrently = this.options.partitionsConsumedConcurrently ?? 1;
    if (this.options.batchHandler) {
      await consumer.run({ autoCommit: true, partitionsConsumedConcurrently, eachBatchAutoResolve: false, eachBatch: (payload) => this.processBatch(payload) });
    } else {
      await consumer.run({ autoCommit: true, partitionsConsumedConcurrently, eachMessage: (payload) => this.process(payload) });
    }
  }

  private async disconnect(): Promise<void> {
    const { consumer, producer } = this;
    this.consumer = null;
    this.producer = null;
    await consumer?.disconnect().catch(() => undefined);
    await producer?.disconnect().catch(() => undefined);
  }

  /** Handles one message; resolving marks its offset for commit, throwing makes kafkajs redeliver it. */
  private async process(payload: EachMessagePayload): Promise<void> {
    const parsed = parseDomainEvent(payload.message.value);
    if (!parsed.valid) {
      await this.deadLetter(payload, `invalid envelope: ${parsed.problems.join('; ')}`);
      return;
    }
    if (!this.accepts(parsed.event.type)) {
      // Not a type this consumer lists: passed over unread.
      this.handled += 1;
      return;
    }
    const dataProblems = eventDataProblems(parsed.event);
    if (dataProblems.length > 0) {
      await this.deadLetter(payload, invalidDataReason(parsed.event, dataProblems));
      return;
    }
    let failures = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.handler(parsed.event, messageContextOf(payload, attempt));
        this.handled += 1;
        if (this.reportedFailure) this.logger.log(`handler of ${this.topic} succeeds again`);
        this.reportedFailure = false;
        return;
      } catch (error) {
        this.recordError(error);
        // Not committed: the message is delivered again after the restart.
        if (this.stopping) throw error;
        const transient = this.isTransient(error);
        if (!transient) failures += 1;
        if (!transient && failures >= this.maxAttempts) {
          await this.deadLetter(payload, `handler failed after ${failures} attempts: ${this.lastError?.message}`);
          return;
        }
        if (transient && !this.reportedFailure) {
          this.reportedFailure = true;
          this.logger.warn(`handler of ${this.topic} failed transiently, retrying until it succeeds: ${this.lastError?.message}`);
        }
        await this.sleep(computeBackoff(attempt, this.retryBackoff));
        await payload.heartbeat();
      }
    }
  }

  /**
   * Batch mode: per chunk of the partition's batch, dead-letters the invalid envelopes, hands
   * the valid events to `batchHandler`, and only then resolves the chunk's offsets (kafkajs
   * commits them). Transient failures retry the chunk until it succeeds; any other failure
   * falls back to `process` per message (retries, then DLQ for the event at fault).
   */
  private async processBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, heartbeat, resolveOffset, commitOffsetsIfNecessary, isRunning, isStale } = payload;
    const size = Math.max(1, this.options.maxBatchSize ?? 2_000);
    for (let start = 0; start < batch.messages.length; start += size) {
      if (!isRunning() || isStale() || this.stopping) return;
      const chunk = batch.messages.slice(start, start + size);
      await this.processChunk(payload, chunk);
      resolveOffset(chunk[chunk.length - 1].offset);
      await commitOffsetsIfNecessary();
      await heartbeat();
    }
  }

  private async processChunk(payload: EachBatchPayload, messages: KafkaMessage[]): Promise<void> {
    const { batch, heartbeat, pause } = payload;
    const valid: Array<{ event: DomainEvent; message: KafkaMessage }> = [];
    for (const message of messages) {
      const parsed = parseDomainEvent(message.value);
      const dataProblems = parsed.valid ? eventDataProblems(parsed.event) : [];
      if (!parsed.valid) await this.deadLetter({ topic: batch.topic, partition: batch.partition, message }, `invalid envelope: ${parsed.problems.join('; ')}`);
      else if (dataProblems.length > 0)
        await this.deadLetter({ topic: batch.topic, partition: batch.partition, message }, invalidDataReason(parsed.event, dataProblems));
      else valid.push({ event: parsed.event, message });
    }
    if (valid.length === 0) return;
    const batchHandler = this.options.batchHandler!;
    for (let attempt = 1; ; attempt++) {
      try {
        const context = {
          topic: batch.topic,
          partition: batch.partition,
          firstOffset: messages[0].offset,
          lastOffset: messages[messages.length - 1].offset,
          attempt,
          heartbeat,
        };
        await batchHandler(
          valid.map((v) => v.event),
          context,
        );
        this.handled += valid.length;
        if (this.reportedFailure) this.logger.log(`batch handler of ${this.topic} succeeds again`);
        this.reportedFailure = false;
        return;
      } catch (error) {
        this.recordError(error);
        if (this.stopping) throw error;
        if (!this.isTransient(error)) break;
        if (!this.reportedFailure) {
          this.reportedFailure = true;
          this.logger.warn(`batch handler of ${this.topic} failed transiently, retrying until it succeeds: ${this.lastError?.message}`);
        }
        await this.sleep(computeBackoff(attempt, this.retryBackoff));
        await heartbeat();
      }
    }
    this.logger.warn(`batch of ${valid.length} events of ${batch.topic}[${batch.partition}] failed (${this.lastError?.message}); handling them one by one`);
    for (const { message } of valid) {
      await this.process({ topic: batch.topic, partition: batch.partition, message, heartbeat, pause });
    }
  }

  /** Copies the original message to the DLQ with the reason; throws (no commit) if that fails. */
  private async deadLetter({ topic, partition, message }: Pick<EachMessagePayload, 'topic' | 'partition' | 'message'>, reason: string): Promise<void> {
    const producer = this.producer;
    if (!producer) throw new Error('dead-letter producer is not connected');
    const headers: IHeaders = {};
    for (const [name, value] of Object.entries(message.headers ?? {})) if (value !== undefined) headers[name] = value;
    Object.assign(headers, {
      [DLQ_HEADERS.REASON]: reason.slice(0, MAX_REASON_LENGTH),
      [DLQ_HEADERS.SOURCE_TOPIC]: topic,
      [DLQ_HEADERS.PARTITION]: String(partition),
      [DLQ_HEADERS.OFFSET]: message.offset,
      [DLQ_HEADERS.CONSUMER_GROUP]: this.groupId,
      [DLQ_HEADERS.FAILED_AT]: new Date().toISOString(),
    });
    await producer.send({ topic: this.dlqTopic, acks: -1, messages: [{ key: message.key, value: message.value, headers }] });
    this.deadLettered += 1;
    this.logger.warn(`moved ${topic}[${partition}]@${message.offset} to ${this.dlqTopic}: ${reason}`);
  }

  private recordError(error: unknown): void {
    this.lastError = { message: error instanceof Error ? error.message : String(error), at: new Date().toISOString() };
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }
}
