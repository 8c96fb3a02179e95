import { Client } from 'pg';

export interface PgListenConnectionOptions {
  /** The database to listen on. */
  url: string;
  /** The channels to LISTEN on (plain identifiers, written into the statement as they are). */
  channels: readonly string[];
  /** Its `application_name` (`pg_stat_activity`), e.g. `service-api-outbox-relay`. */
  applicationName: string;
  /** A notification on one of the channels. */
  onNotification: (channel: string, payload: string | undefined) => void;
  /**
   * Each time it listens: at start, and after every reconnection (`reconnected`): the
   * notifications sent while it was not listening are lost, so the caller looks for itself.
   */
  onListening?: (reconnected: boolean) => void;
  /** Each time the connection is lost or an attempt to connect fails; `failures`: in a row (1 = the outage begins). */
  onLost?: (error: unknown, failures: number) => void;
  /** Delay before the next attempt after `failures` failures in a row. Default: 100 ms doubling to 5 s, less up to 20 % jitter. */
  retryDelayMs?: (failures: number) => number;
}

const defaultRetryDelayMs = (failures: number): number => Math.round(Math.min(100 * 2 ** Math.min(failures - 1, 16), 5_000) * (1 - 0.2 * Math.random()));

/**
 * A dedicated PostgreSQL connection that LISTENs (outside the pool: a pooled connection is
 * shared, a LISTEN belongs to its session), kept up for as long as it is open. The outbox relay
 * and the CI job queue each hold one.
 *
 * It holds at most ONE connection at any time, whatever the server does: when the connection is
 * cut (a restart or failover terminates the backend) the first `error` or `end` of that client
 * counts, the client is ended, and a single reconnection is scheduled after a back-off; later
 * events of the same client are ignored (it keeps a listener, so that none of them can end the
 * process). A new client is made only once the previous one is given up, and attempts go on
 * (backing off) until `close`. Connecting and its failures are never thrown to the caller.
 */
export class PgListenConnection {
  /** The current client: connecting or listening; null while waiting to retry or closed. */
  private client: Client | null = null;
  private up = false;
  private closed = true;
  private listenedBefore = false;
  private failures = 0;
  private retry: NodeJS.Timeout | null = null;
  private attempt: Promise<void> | null = null;

  constructor(private readonly options: PgListenConnectionOptions) {}

  /** Whether it is listening now. */
  get listening(): boolean {
    return this.up;
  }

  /** Connects and listens; resolves after the first attempt (a failed one is retried in the background). */
  async start(): Promise<void> {
    if (!this.closed) return this.attempt ?? undefined;
    this.closed = false;
    await this.connect();
  }

  /** Stops reconnecting and ends the connection. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const client = this.client;
    this.client = null;
    this.up = false;
    if (client) await endQuietly(client);
    await this.attempt;
  }

  private connect(): Promise<void> {
    if (this.closed || this.client) return this.attempt ?? Promise.resolve();
    const client = new Client({ connectionString: this.options.url, application_name: this.options.applicationName });
    this.client = client;
    let gone = false;
    const lost = (error: unknown) => {
      if (gone) return;
      gone = true;
      this.lost(client, error);
    };
    client.on('error', lost);
    client.on('end', () => lost(new Error('connection ended')));
    client.on('notification', (message) => {
      if (this.client === client) this.options.onNotification(message.channel, message.payload);
    });
    const attempt = (async () => {
      try {
        await client.connect();
        for (const channel of this.options.channels) await client.query(`LISTEN ${channel}`);
      } catch (error) {
        lost(error);
        return;
      }
      // Closed, or cut between LISTEN and here.
      if (this.client !== client) return;
      this.up = true;
      this.failures = 0;
      const reconnected = this.listenedBefore;
      this.listenedBefore = true;
      this.options.onListening?.(reconnected);
    })();
    const tracked: Promise<void> = attempt.finally(() => {
      if (this.attempt === tracked) this.attempt = null;
    });
    this.attempt = tracked;
    return tracked;
  }

  private lost(client: Client, error: unknown): void {
    void endQuietly(client);
    if (this.client !== client) return;
    this.client = null;
    this.up = false;
    if (this.closed) return;
    this.failures += 1;
    this.options.onLost?.(error, this.failures);
    this.retry = setTimeout(
      () => {
        this.retry = null;
        void this.connect();
      },
      (this.options.retryDelayMs ?? defaultRetryDelayMs)(this.failures),
    );
    this.retry.unref();
  }
}

/** How long ending a client may take before it is given up (its socket is then already gone). */
const END_TIMEOUT_MS = 2_000;

/**
 * Ends a client, never throwing and never waiting forever: pg's `end()` of a client whose socket
 * the server already closed while it was connecting waits for an `end` event that was emitted
 * before (or never comes), so the wait is bounded.
 */
async function endQuietly(client: Client): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const givenUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, END_TIMEOUT_MS);
    timer.unref();
  });
  try {
    await Promise.race([client.end(), givenUp]);
  } catch {
    // already ended or never connected
  } finally {
    clearTimeout(timer);
  }
}
