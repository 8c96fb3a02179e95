import { chainFromHeaders } from '@app/hooks';
import { runWithEnvelopeExtras } from '@app/messaging';
import { runWithRequestId } from '@app/observability';

/**
 * Runs `fn` in the async context a controller gets, for routes served outside the controller
 * pipeline (the alert notify endpoints): the request id (outbox headers, job data; the
 * instance's hooks enter it too, this keeps the function whole on its own) and, for a request
 * made by a hook receiver, its hook chain (`HookChainInterceptor`: `hook_chain` in the events
 * it writes).
 */
export function inRequestScope<T>(request: { id: string; headers: Record<string, string | string[] | undefined> }, fn: () => Promise<T>): Promise<T> {
  const chain = chainFromHeaders(request.headers);
  const run = chain ? () => runWithEnvelopeExtras({ hook_chain: chain }, fn) : fn;
  return runWithRequestId(request.id, run);
}
