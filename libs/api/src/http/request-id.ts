import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Header that carries the request (correlation) id, in and out. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** Where the id is kept on the raw Node request, for code that only sees `IncomingMessage`. */
const RAW_REQUEST_ID = Symbol.for('service-api.request-id');

/** Incoming ids are reused only when short and plain, so that they are safe to log and echo. */
const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id of a request: the caller's `X-Request-Id` when it is acceptable, else a new UUID.
 * Used as Fastify's `genReqId`, so it is `request.id` everywhere.
 */
export function generateRequestId(raw: IncomingMessage): string {
  const header = raw.headers[REQUEST_ID_HEADER];
  const incoming = Array.isArray(header) ? header[0] : header;
  const id = incoming !== undefined && ACCEPTABLE_ID.test(incoming) ? incoming : randomUUID();
  (raw as IncomingMessage & { [RAW_REQUEST_ID]?: string })[RAW_REQUEST_ID] = id;
  return id;
}

interface RequestLike {
  id?: unknown;
  raw?: unknown;
}

/** The id of a Fastify request or of its raw Node request; undefined if none was assigned. */
export function getRequestId(request: unknown): string | undefined {
  if (request === null || typeof request !== 'object') return undefined;
  const { id, raw } = request as RequestLike;
  if (typeof id === 'string') return id;
  const holder = (raw ?? request) as { [RAW_REQUEST_ID]?: string };
  return holder[RAW_REQUEST_ID];
}
