import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit, Optional } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { closeRedisConnection, REDIS, redisKey, subscribeToInvalidations } from '@app/queue';
import { MetricsService } from '@app/observability';
import type { Redis } from 'ioredis';
import type { Counter } from 'prom-client';
import { ApplicationSettings } from './application-settings';
import { SettingsContext } from './setting-definitions';
import { SettingsReader } from './settings-reader';
import { SettingsRepository } from './settings.repository';

/** Channel (under the Redis prefix) on which a change of the settings is announced to every process. Never rename. */
export const SETTINGS_INVALIDATION_CHANNEL = 'application-settings:invalidate';

export const settingsContextOf = (config: AppConfig): SettingsContext => ({
  host: new URL(config.http.externalUrl).hostname,
  sessionExpireDelayMinutes: config.auth.sessionExpireDelayMinutes,
});

/**
 * The settings, cached for `SETTINGS_CACHE_TTL` seconds (60 by default). A change is
 * published on a Redis channel; every process (this one included) drops its copy on the
 * message, so the next read sees the change at once. While the subscription is down (Redis
 * away), the lifetime bounds how stale a copy can be; the copy is dropped when it comes back.
 */
@Injectable()
export class CachedSettingsReader extends SettingsReader implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(CachedSettingsReader.name);
  private readonly channel: string;
  private readonly ttlMs: number;
  private cached: { settings: ApplicationSettings; expiresAt: number } | null = null;
  private loading: Promise<ApplicationSettings> | null = null;
  /** Bumped by every invalidation: a read that started before one does not fill the cache. */
  private generation = 0;
  private subscriber: Redis | null = null;
  private readonly reads?: Counter<'result'>;
  private readonly invalidations?: Counter<'source'>;

  constructor(
    private readonly config: AppConfig,
    private readonly repository: SettingsRepository,
    @Inject(REDIS) private readonly redis: Redis,
    @Optional() metrics?: MetricsService,
  ) {
    super();
    this.channel = redisKey(config.redis.prefix, SETTINGS_INVALIDATION_CHANNEL);
    this.ttlMs = config.settings.cacheTtlSeconds * 1000;
    this.reads = metrics?.counter('application_settings_cache_reads_total', 'Reads of the application settings, by cache result', ['result']);
    this.invalidations = metrics?.counter('application_settings_cache_invalidations_total', 'Drops of the cached application settings, by cause', ['source']);
  }

  async onModuleInit(): Promise<void> {
    this.subscriber = await subscribeToInvalidations(this.redis, {
      channel: this.channel,
      connectionName: 'service-api-settings-subscriber',
      logger: this.logger,
      onInvalidate: (source) => this.invalidate(source),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.subscriber) await closeRedisConnection(this.subscriber);
  }

  async get(): Promise<ApplicationSettings> {
    if (this.cached && this.cached.expiresAt > Date.now()) {
      this.reads?.inc({ result: 'hit' });
      return this.cached.settings;
    }
    this.reads?.inc({ result: 'miss' });
    this.loading ??= this.load().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  /** Drops this process's copy, and announces the change to every other process. */
  async publishChange(): Promise<void> {
    this.invalidate('local');
    try {
      await this.redis.publish(this.channel, String(Date.now()));
    } catch (error) {
      this.logger.warn(
        `cannot announce a settings change (other processes catch up within ${this.config.settings.cacheTtlSeconds}s): ${(error as Error).message}`,
      );
    }
  }

  private invalidate(source: 'local' | 'message' | 'reconnect'): void {
    this.generation += 1;
    this.cached = null;
    this.loading = null;
    this.invalidations?.inc({ source });
  }

  private async load(): Promise<ApplicationSettings> {
    const generation = this.generation;
    const row = await this.repository.load();
    const settings = ApplicationSettings.resolve(row, settingsContextOf(this.config));
    if (generation === this.generation && this.ttlMs > 0) this.cached = { settings, expiresAt: Date.now() + this.ttlMs };
    return settings;
  }
}
