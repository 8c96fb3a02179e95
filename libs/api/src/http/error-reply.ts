import type { FastifyReply } from 'fastify';
import type { DomainError } from '../errors/domain-error';
import { toErrorResponse } from '../errors/error-response';
import { JSON_CONTENT_TYPE } from './json-content-type';

/**
 * Answers a request with the spec's response for `error` straight from a Fastify hook or
 * framework error handler, where Nest's exception filters do not run.
 */
export function sendDomainError(reply: FastifyReply, error: DomainError): FastifyReply {
  const { status, body, headers } = toErrorResponse(error);
  return reply.code(status).headers(headers).type(JSON_CONTENT_TYPE).send(body);
}
