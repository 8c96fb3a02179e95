import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestContextStore {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContextStore>();

/** The id of the HTTP request being served (the `X-Request-Id`), if any. */
export const currentRequestId = (): string | undefined => storage.getStore()?.requestId;

/**
 * Runs `fn` with a request context: every HTTP request (entered by `registerRequestLogging`'s
 * hooks), and workers and consumers carrying the id of the request that caused the work.
 */
export const runWithRequestId = <T>(requestId: string, fn: () => T): T => storage.run({ requestId }, fn);
