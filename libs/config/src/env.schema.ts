import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, MinLength } from 'class-validator';

export const SERVICE_TIERS = ['free', 'premium', 'ultimate'] as const;
export type ServiceTier = (typeof SERVICE_TIERS)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const toInt = ({ value }: { value: unknown }): unknown => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value);

/**
 * Every environment variable the service reads. Validated once at boot; every bad
 * variable is reported at once. Only this library reads `process.env`.
 */
export class EnvironmentVariables {
  @IsString()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/service_api';

  @IsString()
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL = 'redis://127.0.0.1:6379';

  /** Comma-separated host:port list. */
  @IsString()
  @Matches(/^[^,\s:]+:\d+(,[^,\s:]+:\d+)*$/, { message: 'KAFKA_BROKERS must be a comma-separated host:port list' })
  KAFKA_BROKERS = '127.0.0.1:9092';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  /** Port of the health/metrics server of the headless apps (alert-engine, projector) run alone. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  OBSERVABILITY_PORT = 9464;

  /** Base of every web_url and _links; defaults to http://localhost:PORT. */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  EXTERNAL_URL?: string;

  /** When set, the first start creates the admin `root` with a personal access token of this value. */
  @IsOptional()
  @IsString()
  @MinLength(20, { message: 'INITIAL_ROOT_TOKEN must be at least 20 characters' })
  INITIAL_ROOT_TOKEN?: string;

  /**
   * When set, the administrator `root` gets this password (for the web sign-in and the console)
   * when it is created, and on a later start while it has no password yet; never overwritten.
   */
  @IsOptional()
  @IsString()
  @MinLength(8, { message: 'INITIAL_ROOT_PASSWORD must be at least 8 characters' })
  INITIAL_ROOT_PASSWORD?: string;

  /** Directory of the built web console (`npm run build` writes `dist/web`); served under `/-/console/`. */
  @IsString()
  WEB_CONSOLE_DIR = 'dist/web';

  @IsIn(SERVICE_TIERS)
  SERVICE_TIER: ServiceTier = 'ultimate';

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: LogLevel = 'info';

  /** Prefix of every Kafka topic and consumer group (lets tests and tenants share a broker). */
  @IsString()
  @Matches(/^[a-zA-Z0-9._-]*$/)
  KAFKA_TOPIC_PREFIX = '';

  /** Prefix of every Redis key (BullMQ queues, rate limits). */
  @IsString()
  REDIS_PREFIX = 'svc';

  /** Run pending migrations at boot (under an advisory lock). */
  @IsIn(['true', 'false'])
  MIGRATIONS_RUN = 'true';

  /** Outbox relay poll interval when idle, in milliseconds. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  OUTBOX_POLL_MS = 200;

  /**
   * How long the outbox relay, woken by a commit, waits for more commits before it publishes
   * (milliseconds): under load, batches of many events instead of a batch per commit.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1000)
  OUTBOX_LINGER_MS = 25;

  /** Lifetime of OAuth access tokens, in seconds. */
  @Transform(toInt)
  @IsInt()
  @Min(60)
  OAUTH_ACCESS_TOKEN_TTL = 7200;

  /** Where the service keeps files of its own (generated secrets; later, repositories). */
  @IsString()
  @MinLength(1)
  DATA_DIR = 'data';

  /** Where the bare git repositories live (`<id>.git`, one per project); default `DATA_DIR/repositories`. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  REPOSITORIES_DIR?: string;

  /** Lifetime of a web session (`_service_session` cookie), in minutes (GitLab's session_expire_delay). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  SESSION_EXPIRE_DELAY = 10080;

  /** Largest accepted request body, in bytes. */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  BODY_LIMIT = 1_048_576;

  /** Longest accepted URL (path + query), in bytes; longer is a 414. */
  @Transform(toInt)
  @IsInt()
  @Min(256)
  MAX_URL_LENGTH = 8192;

  /** Most milliseconds a client may take to send the request line and headers (then 408 and the connection is closed). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  HTTP_HEADERS_TIMEOUT_MS = 20_000;

  /** Most milliseconds a client may take to send a whole request, body included (then 408 and the connection is closed). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  HTTP_REQUEST_TIMEOUT_MS = 120_000;

  /** A connection on which nothing is received or sent for this many milliseconds is closed. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  HTTP_IDLE_TIMEOUT_MS = 60_000;

  /**
   * How long a kept-alive connection may wait for its next request, in milliseconds. Fastify's
   * default (72 s): well beyond the idle timeout clients keep for a reused connection (undici:
   * the advertised `Keep-Alive: timeout` less 2 s), so that the server never closes a connection
   * at the moment a client sends its next request on it (a reset, not an answer, for a POST).
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  HTTP_KEEP_ALIVE_TIMEOUT_MS = 72_000;

  /** Alert notify requests accepted per project and period (0: no limit); more get 429 with Retry-After. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  ALERT_NOTIFY_RATE_LIMIT = 0;

  /** Length of the alert notify rate limit period, in seconds. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ALERT_NOTIFY_RATE_PERIOD = 60;

  /** Longest a runner's `POST /jobs/request` waits for a job before the 204 (long poll), in seconds. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(300)
  CI_LONG_POLL_SECONDS = 30;

  /** Most alert payloads written in one transaction (group commit of concurrent notify requests). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(2000)
  ALERT_INGEST_MAX_BATCH = 256;

  /** Ingestion transactions (batches) a process writes at the same time. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(16)
  ALERT_INGEST_IN_FLIGHT = 2;

  /** Seconds a notify URL's project and integration stay cached in each process (0: no cache); changes of an integration drop them at once. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  ALERT_INTEGRATION_CACHE_TTL = 10;

  /** Whether administrators may create impersonation tokens. */
  @IsIn(['true', 'false'])
  IMPERSONATION_ENABLED = 'true';

  /**
   * Key of the secrets among the application settings (AES-256-GCM): 32 bytes as 64 hex digits
   * or base64. Unset: a key generated on first start is kept in DATA_DIR/secrets (mode 0600).
   */
  @IsOptional()
  @Matches(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/, { message: 'SETTINGS_ENCRYPTION_KEY must be 32 bytes as 64 hex digits or base64' })
  SETTINGS_ENCRYPTION_KEY?: string;

  /** Lifetime of the cached application settings, in seconds (0: read the database every time). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3600)
  SETTINGS_CACHE_TTL = 60;

  /** Feature flag `import_project_from_remote_file`: `POST /projects/remote-import` (on by default, as GitLab). */
  @IsIn(['true', 'false'])
  FEATURE_IMPORT_PROJECT_FROM_REMOTE_FILE = 'true';

  /** Feature flag `import_project_from_remote_file_s3`: `POST /projects/remote-import-s3` (off by default, as GitLab). */
  @IsIn(['true', 'false'])
  FEATURE_IMPORT_PROJECT_FROM_REMOTE_FILE_S3 = 'false';

  /** Largest decompressed project import archive, in bytes (GitLab's `max_decompressed_archive_size`, 25 GiB). */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  PROJECT_IMPORT_MAX_DECOMPRESSED_BYTES = 25 * 1024 * 1024 * 1024;

  /** Run the system hook dispatcher and delivery workers in this process (gateway). */
  @IsIn(['true', 'false'])
  HOOK_DELIVERY_ENABLED = 'true';

  /** Longest a system hook delivery may take (connection to last byte), in milliseconds. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120_000)
  HOOK_TIMEOUT_MS = 10_000;

  /**
   * Requests a hook delivery connection may carry at once (HTTP/1.1 pipelining); 1, the default,
   * turns pipelining off. See docs/system-hooks.md before raising it.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  HOOK_HTTP_PIPELINING = 1;

  /** Delays before each retry of a failed delivery (comma-separated: ms, s, m, h, d); one retry per entry. */
  @IsString()
  @Matches(/^\s*(\d+(\.\d+)?\s*(ms|s|m|h|d))?(\s*,\s*\d+(\.\d+)?\s*(ms|s|m|h|d))*\s*$/, {
    message: 'HOOK_RETRY_SCHEDULE must be a comma-separated list of durations such as 5s,5m,30m,2h',
  })
  HOOK_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

  /** Deliveries in flight at once per process. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  HOOK_WORKER_CONCURRENCY = 100;

  /** Longest chain of deliveries whose receivers call back into the API (loop protection). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  HOOK_MAX_CHAIN_DEPTH = 5;

  /**
   * How often the delivery queue is compared with its record in PostgreSQL (and rebuilt where
   * Redis lost it), in milliseconds; also how old a pending delivery must be to be checked.
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  HOOK_RECOVERY_INTERVAL_MS = 10_000;
}

/** Variables whose values must never be logged. */
export const SECRET_VARIABLES: ReadonlyArray<keyof EnvironmentVariables> = [
  'INITIAL_ROOT_TOKEN',
  'INITIAL_ROOT_PASSWORD',
  'DATABASE_URL',
  'REDIS_URL',
  'SETTINGS_ENCRYPTION_KEY',
];
