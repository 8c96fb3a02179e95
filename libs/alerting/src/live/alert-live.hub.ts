import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { closeRedisConnection, REDIS } from '@app/queue';
import type { Redis } from 'ioredis';
import { AlertLiveChannel, LiveEntry } from './alert-live.channel';

/** What a live stream is told: an entry, or that entries may have been lost (reload). */
export type LiveSignal = { kind: 'entry'; entry: LiveEntry } | { kind: 'reset' } | { kind: 'close' };
export type LiveListener = (signal: LiveSignal) => void;

/**
 * This process's side of the fan-out: one Redis subscriber connection, subscribed to the
 * channel of each project that has at least one open live stream here. Messages published
 * while the subscription was down are lost: after a reconnection every listener is told to
 * reload. On shutdown every listener is closed, so open streams do not hold the server.
 */
@Injectable()
export class AlertLiveHub implements OnModuleDestroy {
  private readonly logger = new Logger(AlertLiveHub.name);
  private subscriber: Redis | null = null;
  private readonly listeners = new Map<string, Set<LiveListener>>();
  private closed = false;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly channel: AlertLiveChannel,
  ) {}

  /** Number of open listeners (streams) in this process. */
  get size(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  /** Starts delivering the project's entries to `listener`; resolves once subscribed. Returns the unsubscribe function. */
  async subscribe(projectId: number, listener: LiveListener): Promise<() => void> {
    if (this.closed) throw new Error('live hub closed');
    const name = this.channel.channel(projectId);
    let set = this.listeners.get(name);
    if (!set) {
      set = new Set();
      this.listeners.set(name, set);
    }
    set.add(listener);
    if (set.size === 1) await this.connection().subscribe(name);
    return () => this.unsubscribe(name, listener);
  }

  onModuleDestroy(): Promise<void> {
    this.closed = true;
    for (const set of this.listeners.values()) for (const listener of set) listener({ kind: 'close' });
    this.listeners.clear();
    const subscriber = this.subscriber;
    this.subscriber = null;
    return subscriber ? closeRedisConnection(subscriber) : Promise.resolve();
  }

  private unsubscribe(name: string, listener: LiveListener): void {
    const set = this.listeners.get(name);
    if (!set?.delete(listener) || set.size > 0) return;
    this.listeners.delete(name);
    this.subscriber?.unsubscribe(name).catch((error: Error) => this.logger.warn(`unsubscribe ${name}: ${error.message}`));
  }

  private connection(): Redis {
    if (this.subscriber) return this.subscriber;
    const subscriber = this.redis.duplicate({ connectionName: 'service-api:alert-live' });
    subscriber.on('message', (name: string, raw: string) => {
      const space = raw.indexOf(' ');
      if (space < 0) return;
      const entry: LiveEntry = { id: raw.slice(0, space), json: raw.slice(space + 1) };
      for (const listener of this.listeners.get(name) ?? []) listener({ kind: 'entry', entry });
    });
    let readyBefore = false;
    subscriber.on('ready', () => {
      // ioredis subscribes again by itself; what was published meanwhile is lost.
      if (readyBefore) for (const set of this.listeners.values()) for (const listener of set) listener({ kind: 'reset' });
      readyBefore = true;
    });
    subscriber.on('error', (error: Error) => this.logger.warn(`subscriber: ${error.message}`));
    this.subscriber = subscriber;
    return subscriber;
  }
}
