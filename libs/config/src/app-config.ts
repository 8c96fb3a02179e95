import 'reflect-metadata';
import { join, resolve as resolvePath } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { EnvironmentVariables, LogLevel, ServiceTier } from './env.schema';

export class ConfigValidationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigValidationError';
  }
}

export interface DatabaseConfig {
  url: string;
  migrationsRun: boolean;
}
export interface RedisConfig {
  url: string;
  prefix: string;
}
export interface KafkaConfig {
  brokers: string[];
  topicPrefix: string;
  clientId: string;
}
export interface HttpConfig {
  host: string;
  port: number;
  observabilityPort: number;
  externalUrl: string;
  bodyLimit: number;
  maxUrlLength: number;
  /** Slow clients cannot hold connections: limits in milliseconds (see the README's configuration table). */
  timeouts: { headersMs: number; requestMs: number; idleMs: number; keepAliveMs: number };
}
export interface AlertingConfig {
  /** Notify requests per project and period; 0 disables the limit. */
  notifyRateLimit: number;
  notifyRatePeriodSeconds: number;
  /** Most payloads written in one ingestion transaction. */
  ingestMaxBatch: number;
  /** Batches a process writes at the same time. */
  ingestInFlight: number;
  /** Lifetime of a cached notify target (project and integration); 0 disables the cache. */
  integrationCacheTtlSeconds: number;
}
export interface SettingsConfig {
  /** Key of the encrypted application settings; undefined: the development key. */
  encryptionKey?: string;
  cacheTtlSeconds: number;
}
/** Feature flags of project import (GitLab's, with its defaults). */
export interface ProjectTransferConfig {
  remoteImportEnabled: boolean;
  remoteImportS3Enabled: boolean;
  /** Largest decompressed import archive, in bytes. */
  maxDecompressedBytes: number;
}

export interface CiConfig {
  /** Longest `POST /jobs/request` waits for a job (seconds). */
  longPollSeconds: number;
}
export interface HooksConfig {
  /** Whether this process runs the dispatcher and the delivery workers. */
  deliveryEnabled: boolean;
  timeoutMs: number;
  /** Requests per delivery connection at once (HOOK_HTTP_PIPELINING; 1: no pipelining). */
  pipelining: number;
  /** Delay before each retry, in milliseconds (attempts = length + 1). */
  retryScheduleMs: number[];
  concurrency: number;
  maxChainDepth: number;
  /** Period of the queue's comparison with its record in PostgreSQL (HOOK_RECOVERY_INTERVAL_MS). */
  recoveryIntervalMs: number;
}
export interface AuthConfig {
  initialRootToken?: string;
  initialRootPassword?: string;
  oauthAccessTokenTtl: number;
  sessionExpireDelayMinutes: number;
  impersonationEnabled: boolean;
}

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "5s,5m,30m" → [5000, 300000, 1800000] (the format is validated by the schema). */
export function parseDurationList(text: string): number[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [, amount, unit] = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/.exec(part)!;
      return Math.round(Number(amount) * DURATION_UNITS_MS[unit]);
    });
}

/** Typed, validated configuration. Built once from the environment at boot. */
export class AppConfig {
  readonly database: DatabaseConfig;
  readonly redis: RedisConfig;
  readonly kafka: KafkaConfig;
  readonly http: HttpConfig;
  readonly auth: AuthConfig;
  readonly settings: SettingsConfig;
  readonly tier: ServiceTier;
  readonly alerting: AlertingConfig;
  readonly hooks: HooksConfig;
  readonly logLevel: LogLevel;
  readonly outboxPollMs: number;
  /** How long the relay, woken by a commit, waits for more before it publishes. */
  readonly outboxLingerMs: number;
  readonly ci: CiConfig;
  readonly projectTransfer: ProjectTransferConfig;
  /** Absolute path of DATA_DIR. */
  readonly dataDir: string;
  /** Absolute path of the built web console (WEB_CONSOLE_DIR). */
  readonly webConsoleDir: string;
  /** Absolute path of the directory of bare git repositories (REPOSITORIES_DIR, default DATA_DIR/repositories). */
  readonly repositoriesDir: string;

  constructor(env: EnvironmentVariables) {
    this.database = { url: env.DATABASE_URL, migrationsRun: env.MIGRATIONS_RUN === 'true' };
    this.redis = { url: env.REDIS_URL, prefix: env.REDIS_PREFIX };
    this.kafka = {
      brokers: env.KAFKA_BROKERS.split(','),
      // `x.` and `x` name the same prefix: topics and groups read `x.<name>`.
      topicPrefix: env.KAFKA_TOPIC_PREFIX.replace(/\.+$/, ''),
      clientId: 'service-api',
    };
    this.http = {
      host: env.HOST,
      port: env.PORT,
      observabilityPort: env.OBSERVABILITY_PORT,
      externalUrl: (env.EXTERNAL_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
      bodyLimit: env.BODY_LIMIT,
      maxUrlLength: env.MAX_URL_LENGTH,
      timeouts: {
        // Node requires the head to arrive within the time given to the whole request.
        headersMs: Math.min(env.HTTP_HEADERS_TIMEOUT_MS, env.HTTP_REQUEST_TIMEOUT_MS),
        requestMs: env.HTTP_REQUEST_TIMEOUT_MS,
        idleMs: env.HTTP_IDLE_TIMEOUT_MS,
        keepAliveMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      },
    };
    this.auth = {
      initialRootToken: env.INITIAL_ROOT_TOKEN,
      initialRootPassword: env.INITIAL_ROOT_PASSWORD,
      oauthAccessTokenTtl: env.OAUTH_ACCESS_TOKEN_TTL,
      sessionExpireDelayMinutes: env.SESSION_EXPIRE_DELAY,
      impersonationEnabled: env.IMPERSONATION_ENABLED === 'true',
    };
    this.settings = { encryptionKey: env.SETTINGS_ENCRYPTION_KEY, cacheTtlSeconds: env.SETTINGS_CACHE_TTL };
    this.tier = env.SERVICE_TIER;
    this.alerting = {
      notifyRateLimit: env.ALERT_NOTIFY_RATE_LIMIT,
      notifyRatePeriodSeconds: env.ALERT_NOTIFY_RATE_PERIOD,
      ingestMaxBatch: env.ALERT_INGEST_MAX_BATCH,
      ingestInFlight: env.ALERT_INGEST_IN_FLIGHT,
      integrationCacheTtlSeconds: env.ALERT_INTEGRATION_CACHE_TTL,
    };
    this.hooks = {
      deliveryEnabled: env.HOOK_DELIVERY_ENABLED === 'true',
      timeoutMs: env.HOOK_TIMEOUT_MS,
      pipelining: env.HOOK_HTTP_PIPELINING,
      retryScheduleMs: parseDurationList(env.HOOK_RETRY_SCHEDULE),
      concurrency: env.HOOK_WORKER_CONCURRENCY,
      maxChainDepth: env.HOOK_MAX_CHAIN_DEPTH,
      recoveryIntervalMs: env.HOOK_RECOVERY_INTERVAL_MS,
    };
    this.logLevel = env.LOG_LEVEL;
    this.outboxPollMs = env.OUTBOX_POLL_MS;
    this.outboxLingerMs = env.OUTBOX_LINGER_MS;
    this.ci = { longPollSeconds: env.CI_LONG_POLL_SECONDS };
    this.projectTransfer = {
      remoteImportEnabled: env.FEATURE_IMPORT_PROJECT_FROM_REMOTE_FILE === 'true',
      remoteImportS3Enabled: env.FEATURE_IMPORT_PROJECT_FROM_REMOTE_FILE_S3 === 'true',
      maxDecompressedBytes: env.PROJECT_IMPORT_MAX_DECOMPRESSED_BYTES,
    };
    this.dataDir = resolvePath(env.DATA_DIR);
    this.webConsoleDir = resolvePath(env.WEB_CONSOLE_DIR);
    this.repositoriesDir = env.REPOSITORIES_DIR ? resolvePath(env.REPOSITORIES_DIR) : join(this.dataDir, 'repositories');
  }

  /** Validates `source` (default: the process environment), listing every bad variable. */
  static fromEnvironment(source: NodeJS.ProcessEnv = process.env): AppConfig {
    const defined = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
    const known = Object.keys(new EnvironmentVariables());
    const plain = Object.fromEntries(
      Object.entries(defined).filter(
        ([k]) =>
          known.includes(k) ||
          k === 'EXTERNAL_URL' ||
          k === 'INITIAL_ROOT_TOKEN' ||
          k === 'INITIAL_ROOT_PASSWORD' ||
          k === 'SETTINGS_ENCRYPTION_KEY' ||
          k === 'REPOSITORIES_DIR',
      ),
    );
    const env = plainToInstance(EnvironmentVariables, plain, { exposeDefaultValues: true });
    const errors = validateSync(env, { whitelist: false, forbidUnknownValues: false });
    if (errors.length > 0) {
      throw new ConfigValidationError(errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`));
    }
    return new AppConfig(env);
  }

  /** Same configuration with some values replaced (tests). */
  with(
    overrides: Partial<Pick<AppConfig, 'tier'>> & {
      ci?: Partial<CiConfig>;
      http?: Partial<HttpConfig>;
      kafka?: Partial<KafkaConfig>;
      database?: Partial<DatabaseConfig>;
      redis?: Partial<RedisConfig>;
      auth?: Partial<AuthConfig>;
      settings?: Partial<SettingsConfig>;
    },
  ): AppConfig {
    const copy = Object.create(AppConfig.prototype) as AppConfig;
    Object.assign(copy, this, {
      tier: overrides.tier ?? this.tier,
      http: { ...this.http, ...overrides.http },
      kafka: { ...this.kafka, ...overrides.kafka },
      database: { ...this.database, ...overrides.database },
      redis: { ...this.redis, ...overrides.redis },
      auth: { ...this.auth, ...overrides.auth },
      settings: { ...this.settings, ...overrides.settings },
      ci: { ...this.ci, ...overrides.ci },
    });
    return copy;
  }
}
