import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { BackoffOptions, computeBackoff } from './backoff';
import { errorMessage } from './outbox-messages';
import { OUTBOX_NOTIFY_CHANNEL } from './outbox.service';

export interface OutboxListenerOptions {
  databaseUrl: string;
  /** Delay between reconnection attempts. */
  backoff: BackoffOptions;
  /** The relay's poll interval (for the log line while not listening). */
  pollMs: number;
  /** Called on every notification, and once each time the connection is (re)established. */
  onNotify: () => void;
}

/**
 * The outbox relay's dedicated PostgreSQL connection that LISTENs for the notifications of
 * `OutboxService.append` (delivered at commit). Reconnects with backoff when lost, warning once
 * per outage; while it is down the relay polls. Notifications sent while not listening are
 * lost, so `onNotify` is also called each time it listens again.
 */
export class OutboxListener {
  private readonly logger = new Logger('OutboxRelay');
  private client: Client | null = null;
  private up = false;
  private closed = false;
  private failures = 0;
  private retry: NodeJS.Timeout | null = null;

  constructor(private readonly options: OutboxListenerOptions) {}

  /** Whether the LISTEN connection is up. */
  get listening(): boolean {
    return this.up;
  }

  /** Connects and LISTENs; a failure is retried in the background (never thrown). */
  async start(): Promise<void> {
    this.closed = false;
    const client = new Client({ connectionString: this.options.databaseUrl, application_name: 'service-api-outbox-relay' });
    client.on('notification', () => this.options.onNotify());
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_NOTIFY_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      this.lost(client, error);
      return;
    }
    if (this.closed) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.up = true;
    if (this.failures > 0) this.logger.log('outbox relay is listening for notifications again');
    this.failures = 0;
    // Notifications sent while we were not listening are lost: look at the table now.
    this.options.onNotify();
  }

  /** Stops reconnecting and closes the connection. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const client = this.client;
    this.client = null;
    this.up = false;
    if (client) await client.end().catch(() => undefined);
  }

  private lost(client: Client, error: unknown): void {
    if (this.client !== null && this.client !== client) return;
    this.client = null;
    this.up = false;
    if (this.closed || this.retry) return;
    client.end().catch(() => undefined);
    this.failures += 1;
    if (this.failures === 1) {
      this.logger.warn(`outbox relay lost its LISTEN connection, polling every ${this.options.pollMs} ms until it is back: ${errorMessage(error)}`);
    }
    this.retry = setTimeout(() => {
      this.retry = null;
      if (!this.closed) void this.start();
    }, computeBackoff(this.failures, this.options.backoff));
  }
}
