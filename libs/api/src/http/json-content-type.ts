import type { FastifyInstance } from 'fastify';

/**
 * The media type of every JSON answer, exactly as GitLab's API sends it (`content_type :json,
 * 'application/json'`): clients such as python-gitlab before 3.14 parse a body only on an exact
 * match, so no `; charset=utf-8` parameter (JSON is UTF-8 by definition, RFC 8259).
 */
export const JSON_CONTENT_TYPE = 'application/json';

/** What Fastify writes itself when a handler sends an object or array without a type. */
const FASTIFY_JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * One `onSend` hook for the whole app: whatever serialized the answer (Fastify's default for
 * objects, a handler, a hook), a JSON answer leaves with exactly {@link JSON_CONTENT_TYPE}.
 */
export function sendExactJsonContentType(instance: FastifyInstance): void {
  instance.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.getHeader('content-type') === FASTIFY_JSON_CONTENT_TYPE) reply.header('content-type', JSON_CONTENT_TYPE);
    done(null, payload);
  });
}
