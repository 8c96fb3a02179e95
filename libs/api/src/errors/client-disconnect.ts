/** Codes Node gives the errors of a request whose client went away (reset, closed early, aborted upload). */
const DISCONNECT_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED']);

interface MaybeRawRequest {
  raw?: { aborted?: boolean; destroyed?: boolean; socket?: { destroyed?: boolean } | null };
}

/**
 * Whether a failure only means that the client hung up (an upload aborted, a connection reset
 * while reading or writing): nothing went wrong on the server, so it is logged at debug level,
 * not as an error. Looks through `cause` (Fastify and Nest wrap body errors).
 */
export function isClientDisconnect(error: unknown, request?: unknown): boolean {
  const raw = (request as MaybeRawRequest | undefined)?.raw;
  if (raw?.aborted === true) return true;
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = (current as Error & { cause?: unknown }).cause, depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if ((code !== undefined && DISCONNECT_CODES.has(code)) || current.message === 'aborted') return true;
  }
  return false;
}
