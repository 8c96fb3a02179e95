import 'reflect-metadata';
import { resolve as resolvePath } from 'node:path';
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
}
export interface AlertingConfig {
  /** Notify requests per project and period; 0 disables the limit. */
  notifyRateLimit: number;
  notifyRatePeriodSeconds: number;
}
export interface SettingsConfig {
  /** Key of the encrypted application settings; undefined: the development key. */
  encryptionKey?: string;
  cacheTtlSeconds: number;
}
export interface AuthConfig {
  initialRootToken?: string;
  oauthAccessTokenTtl: number;
  sessionExpireDelayMinutes: number;
  impersonationEnabled: boolean;
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
  readonly logLevel: LogLevel;
  readonly outboxPollMs: number;
  /** Absolute path of DATA_DIR. */
  readonly dataDir: string;

  constructor(env: EnvironmentVariables) {
    this.database = { url: env.DATABASE_URL, migrationsRun: env.MIGRATIONS_RUN === 'true' };
    this.redis = { url: env.REDIS_URL, prefix: env.REDIS_PREFIX };
    this.kafka = {
      brokers: env.KAFKA_BROKERS.split(','),
      topicPrefix: env.KAFKA_TOPIC_PREFIX,
      clientId: 'service-api',
    };
    this.http = {
      host: env.HOST,
      port: env.PORT,
      observabilityPort: env.OBSERVABILITY_PORT,
      externalUrl: (env.EXTERNAL_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
      bodyLimit: env.BODY_LIMIT,
      maxUrlLength: env.MAX_URL_LENGTH,
    };
    this.auth = {
      initialRootToken: env.INITIAL_ROOT_TOKEN,
      oauthAccessTokenTtl: env.OAUTH_ACCESS_TOKEN_TTL,
      sessionExpireDelayMinutes: env.SESSION_EXPIRE_DELAY,
      impersonationEnabled: env.IMPERSONATION_ENABLED === 'true',
    };
    this.settings = { encryptionKey: env.SETTINGS_ENCRYPTION_KEY, cacheTtlSeconds: env.SETTINGS_CACHE_TTL };
    this.tier = env.SERVICE_TIER;
    this.alerting = { notifyRateLimit: env.ALERT_NOTIFY_RATE_LIMIT, notifyRatePeriodSeconds: env.ALERT_NOTIFY_RATE_PERIOD };
    this.logLevel = env.LOG_LEVEL;
    this.outboxPollMs = env.OUTBOX_POLL_MS;
    this.dataDir = resolvePath(env.DATA_DIR);
  }

  /** Validates `source` (default: the process environment), listing every bad variable. */
  static fromEnvironment(source: NodeJS.ProcessEnv = process.env): AppConfig {
    const defined = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
    const known = Object.keys(new EnvironmentVariables());
    const plain = Object.fromEntries(Object.entries(defined).filter(([k]) => known.includes(k) || k === 'EXTERNAL_URL' || k === 'INITIAL_ROOT_TOKEN' || k === 'SETTINGS_ENCRYPTION_KEY'));
    const env = plainToInstance(EnvironmentVariables, plain, { exposeDefaultValues: true });
    const errors = validateSync(env, { whitelist: false, forbidUnknownValues: false });
    if (errors.length > 0) {
      throw new ConfigValidationError(
        errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`),
      );
    }
    return new AppConfig(env);
  }

  /** Same configuration with some values replaced (tests). */
  with(overrides: Partial<Pick<AppConfig, 'tier'>> & { http?: Partial<HttpConfig>; kafka?: Partial<KafkaConfig>; database?: Partial<DatabaseConfig>; redis?: Partial<RedisConfig>; auth?: Partial<AuthConfig>; settings?: Partial<SettingsConfig> }): AppConfig {
    const copy = Object.create(AppConfig.prototype) as AppConfig;
    Object.assign(copy, this, {
      tier: overrides.tier ?? this.tier,
      http: { ...this.http, ...overrides.http },
      kafka: { ...this.kafka, ...overrides.kafka },
      database: { ...this.database, ...overrides.database },
      redis: { ...this.redis, ...overrides.redis },
      auth: { ...this.auth, ...overrides.auth },
      settings: { ...this.settings, ...overrides.settings },
    });
    return copy;
  }
}
