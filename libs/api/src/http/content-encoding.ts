import { PassThrough, type Readable, type Transform } from 'node:stream';
import { createGunzip, createInflate } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../errors/domain-error';
import { sendDomainError } from './error-reply';
import { routeConfigOf } from './route-config';

/** Content codings decoded before the body is parsed; any other is a 415. */
const DECODERS: Record<string, () => Transform> = {
  gzip: () => createGunzip(),
  'x-gzip': () => createGunzip(),
  deflate: () => createInflate(),
};

/** A decoded body stream that tells Fastify how many encoded bytes it read (its `Content-Length` check). */
type DecodedStream = PassThrough & { receivedEncodedLength: number };

const hasBody = (request: FastifyRequest): boolean => {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
};

/**
 * `preParsing` hook: a request body with `Content-Encoding: gzip` (`x-gzip`) or `deflate` is
 * decoded before any parser reads it, so that the body limit applies to the decoded size (a
 * small gzip of a huge body is a 413, not a memory exhaustion); `identity` is no coding; any
 * other coding, or several, is 415. A body that does not decode is a 400. Routes that read
 * their raw stream and decode it themselves (git smart HTTP) declare `@OwnContentEncoding()`.
 */
export function decodeContentEncoding(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: Readable,
  done: (error: Error | null, payload?: Readable) => void,
): void {
  const header = request.headers['content-encoding'];
  const coding = (Array.isArray(header) ? header.join(',') : (header ?? '')).trim().toLowerCase();
  if (coding === '' || coding === 'identity' || !hasBody(request) || routeConfigOf(request).ownContentEncoding) {
    done(null, payload);
    return;
  }
  const decoder = DECODERS[coding];
  if (!decoder) {
    sendDomainError(reply, DomainError.unsupportedMediaType());
    return;
  }
  const decoded = new PassThrough() as DecodedStream;
  decoded.receivedEncodedLength = 0;
  payload.on('data', (chunk: Buffer) => {
    decoded.receivedEncodedLength += chunk.length;
  });
  const inflater = decoder();
  // The decoder's own error would reach the client as a 500: it becomes the 400 it is.
  inflater.on('error', () => decoded.destroy(DomainError.badRequest(`The request body could not be decoded (Content-Encoding: ${coding})`)));
  payload.on('error', (error) => decoded.destroy(error));
  payload.pipe(inflater).pipe(decoded);
  done(null, decoded);
}
