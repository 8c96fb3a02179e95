import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { REDIS, redisKey } from '@app/queue';
import type { Redis } from 'ioredis';
import type { AlertLiveMessage } from './alert-live.message';

/** Entries kept per project for `Last-Event-ID` catch-up (approximate trim). */
export const LIVE_BACKLOG_LENGTH = 1_000;
/** A project's backlog disappears after this long without changes. */
export const LIVE_BACKLOG_TTL_MS = 3_600_000;

/** One entry of a project's live stream: its id (a Redis stream id, `ms-seq`) and its JSON. */
export interface LiveEntry {
  id: string;
  json: string;
}

/**
 * Appends to the project's backlog stream and publishes the entry (id and JSON) on the
 * project's channel, in one atomic step, so a reader that catches up from the backlog and then
 * follows the channel misses nothing and sees every entry once.
 */
const PUBLISH_SCRIPT = `
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'm', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PUBLISH', KEYS[2], id .. ' ' .. ARGV[1])
return id`;

/**
 * The Redis side of the console's live alert streams: a capped stream per project (the
 * backlog for catch-up, a cache: when it is gone, readers are told to reload) and a pub/sub
 * channel per project (the fan-out to every gateway replica).
 */
@Injectable()
export class AlertLiveChannel {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: AppConfig,
  ) {}

  backlogKey(projectId: number): string {
    return redisKey(this.config.redis.prefix, 'alert-live', 'backlog', projectId);
  }

  channel(projectId: number): string {
    return redisKey(this.config.redis.prefix, 'alert-live', projectId);
  }

  /** Publishes one message; resolves to its entry id. */
  async publish(message: AlertLiveMessage): Promise<string> {
    const id = await this.redis.eval(
      PUBLISH_SCRIPT,
      2,
      this.backlogKey(message.project_id),
      this.channel(message.project_id),
      JSON.stringify(message),
      LIVE_BACKLOG_LENGTH,
      LIVE_BACKLOG_TTL_MS,
    );
    return String(id);
  }

  /** The id of the newest entry of the project's backlog, `0-0` when it is empty. */
  async latestId(projectId: number): Promise<string> {
    const last = await this.redis.xrevrange(this.backlogKey(projectId), '+', '-', 'COUNT', 1);
    return last[0]?.[0] ?? '0-0';
  }

  /**
   * The entries after `lastId`, oldest first; null when the backlog no longer holds `lastId`
   * (trimmed, expired, or Redis restarted empty): the reader must reload instead.
   */
  async since(projectId: number, lastId: string): Promise<LiveEntry[] | null> {
    if (!/^\d{1,20}-\d{1,20}$/.test(lastId)) return null;
    const key = this.backlogKey(projectId);
    if (lastId !== '0-0') {
      const found = await this.redis.xrange(key, lastId, lastId);
      if (found.length === 0) return null;
    }
    const entries = await this.redis.xrange(key, `(${lastId}`, '+', 'COUNT', LIVE_BACKLOG_LENGTH);
    return entries.map(([id, fields]) => ({ id, json: fields[fields.indexOf('m') + 1] ?? '{}' }));
  }
}
