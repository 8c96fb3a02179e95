/**
 * Thrown by a consumer handler when the failure is not the message's fault (a dependency is
 * down, a lock timed out): the consumer retries the same message until it succeeds instead
 * of sending it to the dead-letter topic.
 */
export class TransientError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TransientError';
  }
}

/** Network error codes of Node sockets that mean "try again later". */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);

/**
 * PostgreSQL SQLSTATEs that a retry can cure: serialization failure, deadlock, lock timeout,
 * too many connections, server shutting down / starting, and the whole connection-exception
 * class 08.
 */
const POSTGRES_CODES = new Set(['40001', '40P01', '55P03', '53300', '57P01', '57P02', '57P03']);

/**
 * Whether `error` (or the error it wraps) is worth retrying indefinitely rather than dead-lettering:
 * a `TransientError`, a network error, a retryable PostgreSQL error, a pool/connection
 * termination, or a kafkajs error that kafkajs itself marks retriable.
 */
export function isTransientError(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  if (error instanceof TransientError) return true;
  const e = error as {
    code?: unknown;
    retriable?: unknown;
    name?: unknown;
    message?: unknown;
    cause?: unknown;
    driverError?: unknown;
    originalError?: unknown;
  };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || POSTGRES_CODES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code))) return true;
  if (typeof e.name === 'string' && e.name.startsWith('KafkaJS') && e.retriable === true) return true;
  if (typeof e.message === 'string' && /Connection terminated|Connection ended unexpectedly|timeout exceeded when trying to connect/i.test(e.message))
    return true;
  return [e.cause, e.driverError, e.originalError].some((inner) => isTransientError(inner, depth + 1));
}
