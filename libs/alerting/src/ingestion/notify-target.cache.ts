import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { ProjectsRepository } from '@app/namespaces';
import { closeRedisConnection, REDIS, redisKey, subscribeToInvalidations } from '@app/queue';
import type { Redis } from 'ioredis';
import { HttpIntegrationsRepository, IntegrationWithDigest, type NotifySelector } from '../core/http-integrations.repository';

/** Channel (under the Redis prefix) announcing a change of an alert integration to every process. Never rename. */
export const ALERT_INTEGRATIONS_INVALIDATION_CHANNEL = 'alert-integrations:invalidate';

/** What a notify URL designates: the project and the integration (with its key digest). */
export interface NotifyTarget {
  project: { id: number; groupId: number | null };
  integration: IntegrationWithDigest;
}

/** Most notify URLs remembered per process (the oldest is dropped first). */
const MAX_ENTRIES = 10_000;

/**
 * Per-process cache of notify URL → project and integration (or "nothing there"), so that a
 * notify request costs no lookup query. Entries live `ALERT_INTEGRATION_CACHE_TTL` seconds.
 * Creating, changing, resetting the key of or deleting an integration drops every entry in
 * every process at once (a Redis message, as for the application settings); while the
 * subscription is down, the lifetime bounds staleness. A project renamed, moved or deleted
 * elsewhere is seen within the lifetime.
 */
@Injectable()
export class NotifyTargetCache implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(NotifyTargetCache.name);
  private readonly channel: string;
  private readonly ttlMs: number;
  private readonly entries = new Map<string, { target: NotifyTarget | null; expiresAt: number }>();
  private readonly loading = new Map<string, Promise<NotifyTarget | null>>();
  /** Bumped by every invalidation: a lookup that started before one does not fill the cache. */
  private generation = 0;
  private subscriber: Redis | null = null;

  constructor(
    config: AppConfig,
    private readonly projects: ProjectsRepository,
    private readonly integrations: HttpIntegrationsRepository,
    @Inject(REDIS) private readonly redis: Redis,
  ) {
    this.channel = redisKey(config.redis.prefix, ALERT_INTEGRATIONS_INVALIDATION_CHANNEL);
    this.ttlMs = config.alerting.integrationCacheTtlSeconds * 1000;
  }

  async onModuleInit(): Promise<void> {
    if (this.ttlMs <= 0) return;
    this.subscriber = await subscribeToInvalidations(this.redis, {
      channel: this.channel,
      connectionName: 'service-api-alert-integrations-subscriber',
      logger: this.logger,
      onInvalidate: () => this.clear(),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.subscriber) await closeRedisConnection(this.subscriber);
  }

  /** The target of a notify URL; null when the project or the integration does not exist. */
  async get(projectPath: string, selector: NotifySelector): Promise<NotifyTarget | null> {
    if (this.ttlMs <= 0) return this.load(projectPath, selector);
    const key = `${projectPath.toLowerCase()}\n${typeof selector === 'string' ? `:${selector}` : selector.endpointIdentifier}`;
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.target;
    let pending = this.loading.get(key);
    if (!pending) {
      const generation = this.generation;
      const lookup: Promise<NotifyTarget | null> = this.load(projectPath, selector)
        .then((target) => {
          if (generation === this.generation) this.remember(key, target);
          return target;
        })
        .finally(() => {
          if (this.loading.get(key) === lookup) this.loading.delete(key);
        });
      pending = lookup;
      this.loading.set(key, lookup);
    }
    return pending;
  }

  /** Call after an integration's change is committed: drops this process's entries and announces it to the others. */
  async publishChange(): Promise<void> {
    this.clear();
    if (this.ttlMs <= 0) return;
    try {
      await this.redis.publish(this.channel, String(Date.now()));
    } catch (error) {
      this.logger.warn(`cannot announce an alert integration change (other processes catch up within ${this.ttlMs / 1000}s): ${(error as Error).message}`);
    }
  }

  /** Drops this process's entries (for example when an ingestion found the project gone). */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.loading.clear();
  }

  private remember(key: string, target: NotifyTarget | null): void {
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { target, expiresAt: Date.now() + this.ttlMs });
  }

  private async load(projectPath: string, selector: NotifySelector): Promise<NotifyTarget | null> {
    if (!projectPath.includes('/')) return null;
    const project = await this.projects.findByRef(projectPath);
    if (!project) return null;
    const integration = await this.integrations.findForNotify(project.id, selector);
    if (!integration) return null;
    return { project: { id: project.id, groupId: project.namespace.kind === 'group' ? project.namespace.id : null }, integration };
  }
}
