import type { LogLevel } from '@app/config';
import { pino } from 'pino';
import { createRootLogger } from './root-logger';

/** Exit code of a process ended by an unhandled rejection or an uncaught exception. */
export const CRASH_EXIT_CODE = 1;

export interface CrashHandlerOptions {
  /** `LOG_LEVEL`; `silent` mutes the line, the process exits all the same. */
  level: LogLevel;
  /** File descriptor the line is written to, synchronously: standard output (1) unless the app keeps it for its own output (the cli: 2). */
  fd?: number;
}

let installed = false;

/**
 * Ends the process on an unhandled promise rejection or an uncaught exception: one JSON line at
 * level `fatal` (`msg` "unhandled rejection" or "uncaught exception", the error under `err`, and
 * the `reqId` of the request whose asynchronous context it came from, if any: Node runs these
 * handlers in the context of the failed promise or callback), then exit with
 * `CRASH_EXIT_CODE`. Past such an error the process is in a state nobody planned for (a
 * transaction half done, a consumer stopped): it does not go on serving. The deployment
 * restarts it (docs/operations.md, "Crashes and restarts"); queued jobs, the outbox and
 * Kafka offsets make the restart lose nothing.
 *
 * Called first thing by every app's entry point (gateway, alert-engine, projector, service,
 * cli); idempotent, so that apps sharing a process install the handlers once.
 */
export function installCrashHandlers({ level, fd = 1 }: CrashHandlerOptions): void {
  if (installed) return;
  installed = true;
  // Synchronous: the line is written before `process.exit`.
  const logger = createRootLogger({ level, destination: pino.destination({ fd, sync: true }) });
  const crash = (msg: string) => (error: unknown) => {
    try {
      logger.fatal({ err: error }, msg);
      logger.flush();
    } finally {
      process.exit(CRASH_EXIT_CODE);
    }
  };
  process.on('unhandledRejection', crash('unhandled rejection'));
  process.on('uncaughtException', crash('uncaught exception'));
}
