import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { JSON_CONTENT_TYPE } from './json-content-type';

/**
 * The raw answer to a request that Node's HTTP parser refused or that timed out before it
 * reached any route (Fastify's `clientErrorHandler`): in the spec's error shape
 * (`{"message": "<status> <reason>"}`, `application/json`), then the connection is closed.
 * A connection already reset or not writable gets nothing.
 */
export function clientErrorAnswer(error: NodeJS.ErrnoException): string {
  const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const reason = status === 400 ? '400 Bad request - malformed HTTP request' : `${status} ${STATUS_CODES[status]}`;
  const body = JSON.stringify({ message: reason });
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${JSON_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) socket.write(clientErrorAnswer(error));
  socket.destroy(error);
}
