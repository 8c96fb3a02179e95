import { Logger } from '@nestjs/common';
import { PgListenConnection, SERVICE_APPLICATION_NAME } from '@app/database';
import { BackoffOptions, computeBackoff } from './backoff';
import { errorMessage } from './outbox-messages';
import { OUTBOX_NOTIFY_CHANNEL } from './outbox.service';

/** `application_name` of the relay's LISTEN connection. */
export const OUTBOX_LISTEN_APPLICATION_NAME = `${SERVICE_APPLICATION_NAME}-outbox-relay`;

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
 * `OutboxService.append` (delivered at commit): a `PgListenConnection` (one connection at most,
 * reconnected with backoff when cut), warning once per outage; while it is down the relay
 * polls. Notifications sent while not listening are lost, so `onNotify` is also called each
 * time it listens again.
 */
export class OutboxListener {
  private readonly logger = new Logger('OutboxRelay');
  private readonly connection: PgListenConnection;

  constructor(options: OutboxListenerOptions) {
    this.connection = new PgListenConnection({
      url: options.databaseUrl,
      channels: [OUTBOX_NOTIFY_CHANNEL],
      applicationName: OUTBOX_LISTEN_APPLICATION_NAME,
      retryDelayMs: (failures) => computeBackoff(failures, options.backoff),
      onNotification: () => options.onNotify(),
      onListening: (reconnected) => {
        if (reconnected) this.logger.log('outbox relay is listening for notifications again');
        // Notifications sent while we were not listening are lost: look at the table now.
        options.onNotify();
      },
      onLost: (error, failures) => {
        if (failures === 1)
          this.logger.warn(`outbox relay lost its LISTEN connection, polling every ${options.pollMs} ms until it is back: ${errorMessage(error)}`);
      },
    });
  }

  /** Whether the LISTEN connection is up. */
  get listening(): boolean {
    return this.connection.listening;
  }

  /** Connects and LISTENs; a failure is retried in the background (never thrown). */
  start(): Promise<void> {
    return this.connection.start();
  }

  /** Stops reconnecting and closes the connection. */
  close(): Promise<void> {
    return this.connection.close();
  }
}
