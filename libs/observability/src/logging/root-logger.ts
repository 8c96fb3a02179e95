import { LogLevel } from '@app/config';
import { DestinationStream, Logger, pino } from 'pino';
import { currentRequestId } from '../core/request-context';
import { redactLogObject, redactText } from './redact';

export interface RootLoggerOptions {
  level: LogLevel;
  /** Where the JSON lines go; standard output when omitted (tests pass a stream to read them back). */
  destination?: DestinationStream;
}

/**
 * The pino logger every log line of the process goes through: one JSON object per line,
 * `level` as a label, ISO `time`, message under `msg`, and secrets masked (see
 * `redactLogObject`) in logged objects, child bindings and message strings alike. A line
 * written while a request (or work caused by one) is served carries its `reqId` (the request
 * context of `runWithRequestId`), without a child logger per request.
 */
export function createRootLogger({ level, destination }: RootLoggerOptions): Logger {
  return pino(
    {
      level,
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin: () => {
        const requestId = currentRequestId();
        return requestId === undefined ? {} : { reqId: requestId };
      },
      formatters: {
        level: (label) => ({ level: label }),
        bindings: (bindings) => redactLogObject(bindings),
        log: (object) => redactLogObject(object),
      },
      hooks: {
        logMethod(args, method) {
          method.apply(this, args.map((arg: unknown) => (typeof arg === 'string' ? redactText(arg) : arg)) as Parameters<typeof method>);
        },
      },
    },
    destination ?? pino.destination({ fd: 1, sync: false }),
  );
}
