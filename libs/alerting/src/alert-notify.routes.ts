import { Logger } from '@nestjs/common';
import { DomainError, internalErrorResponse, isClientDisconnect, JSON_CONTENT_TYPE, sendDomainError } from '@app/api';
import type { ApiRouteConfig } from '@app/api';
import { isConnectionLost } from '@app/database';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PROMETHEUS_INTEGRATION } from './core/http-integrations.repository';
import { ALERT_NOTIFY_FIRST_INTEGRATION_ROUTES, ALERT_NOTIFY_INTEGRATION_ROUTES, ALERT_NOTIFY_PROMETHEUS_ROUTES, projectPathOfParams } from './core/notify-url';
import type { ReceiveAlertNotificationCommand, ReceiveAlertNotificationUseCase } from './use-cases/receive-alert-notification.use-case';

export interface AlertNotifyRoutesOptions {
  receive: ReceiveAlertNotificationUseCase;
  /**
   * Runs the handler in the request's async context (request id, hook chain), as the
   * application's request pipeline would: what it writes to the outbox carries them.
   */
  inRequestContext: <T>(request: FastifyRequest, fn: () => Promise<T>) => Promise<T>;
}

/** The body reaches the handler as a Buffer: the use case checks size and depth before parsing. */
const NOTIFY_DOC = {
  tag: 'Alert notify',
  security: [{ integrationKey: [] }],
  jsonBody: true,
  description:
    'A monitoring tool posts one alert (a JSON object of at most 1 MB and 100 levels) with the integration key. The answer, `[{"iid", "title"}]`, is sent once the alert is committed. 401 for a wrong key, 403 for an inactive integration, 429 past the notify rate limit.',
};
const INTEGRATION_ROUTE_CONFIG: ApiRouteConfig = { rawJsonBody: true, openapi: { ...NOTIFY_DOC, summary: 'Post an alert to an HTTP endpoint integration' } };
const FIRST_INTEGRATION_ROUTE_CONFIG: ApiRouteConfig = {
  rawJsonBody: true,
  openapi: { ...NOTIFY_DOC, summary: "Post an alert to the project's first HTTP endpoint integration" },
};
const PROMETHEUS_ROUTE_CONFIG: ApiRouteConfig = {
  rawJsonBody: true,
  openapi: {
    ...NOTIFY_DOC,
    summary: "Post an Alertmanager or Grafana Alerting webhook to the project's Prometheus integration",
    description:
      'Prometheus Alertmanager (webhook version 4) or Grafana Alerting (webhook contact point) posts a group of alerts with the Prometheus integration key; each element of `alerts` is one alert event, all committed in one transaction before the answer `[{"iid", "title"}]` (each alert once). 401 for a wrong key, 403 for an inactive integration, 429 past the notify rate limit, 400 for a body that is not a JSON object of at most 1 MB, 422 for one that is not such a webhook.',
  },
};

const JSON_SUFFIX = '.json';

const logger = new Logger('AlertNotifyRoutes');

/**
 * Serves the notify endpoints (`POST /:namespace/:project/alerts/notify/:name/:endpoint.json`,
 * `POST /:namespace/:project/alerts/notify.json` and `POST /:namespace/:project/prometheus/alerts/notify.json`) as plain routes of the Fastify instance,
 * outside the framework's controller pipeline (router, guards, interceptors): they carry the
 * whole alert load, authenticate with the integration key, and need none of it.
 *
 * What that pipeline gave them is kept here or by the instance's own hooks: the request id
 * (`X-Request-Id`, echoed by the adapter's hook, and in the async context for the outbox
 * headers), the hook chain context, the body parsers and their limits (413/415), the access
 * log line (the instance's `onResponse` hook), the spec's error bodies (`sendDomainError`;
 * 500 with `correlation_id`), and 404/405 for other paths and methods (the not-found handler
 * finds these routes in the router). An empty path segment is a 404, as for every route.
 *
 * Register after the application's `init()` (its hooks and middleware are then in place: the
 * routes' context copies the hooks when it is created) and before it starts listening.
 */
export function registerAlertNotifyRoutes(fastify: FastifyInstance, options: AlertNotifyRoutesOptions): void {
  const { receive, inRequestContext } = options;

  const run = async (
    request: FastifyRequest,
    reply: FastifyReply,
    params: Record<string, string>,
    endpointIdentifier: ReceiveAlertNotificationCommand['endpointIdentifier'],
  ): Promise<void> => {
    let alerts: Array<{ iid: number; title: string }>;
    try {
      const result = await inRequestContext(request, () =>
        receive.execute({
          projectPath: projectPathOfParams(params),
          endpointIdentifier,
          authorization: request.headers.authorization,
          body: request.body,
          receivedAt: new Date(),
        }),
      );
      alerts = result.alerts;
    } catch (error) {
      fail(request, reply, error);
      return;
    }
    reply.code(200).header('content-type', JSON_CONTENT_TYPE).send(JSON.stringify(alerts));
  };

  const integrationHandler = (request: FastifyRequest, reply: FastifyReply): Promise<void> | void => {
    const params = request.params as Record<string, string>;
    if (hasEmptyParam(params)) return reply.callNotFound();
    const endpoint = params['endpoint'];
    if (!endpoint.endsWith(JSON_SUFFIX) || endpoint.length <= JSON_SUFFIX.length) {
      sendDomainError(reply, DomainError.routeNotFound());
      return;
    }
    return run(request, reply, params, endpoint.slice(0, -JSON_SUFFIX.length));
  };

  const firstIntegrationHandler = (request: FastifyRequest, reply: FastifyReply): Promise<void> | void => {
    const params = request.params as Record<string, string>;
    if (hasEmptyParam(params)) return reply.callNotFound();
    return run(request, reply, params, null);
  };

  const prometheusHandler = (request: FastifyRequest, reply: FastifyReply): Promise<void> | void => {
    const params = request.params as Record<string, string>;
    if (hasEmptyParam(params)) return reply.callNotFound();
    return run(request, reply, params, PROMETHEUS_INTEGRATION);
  };

  // A context of its own; it inherits the instance's hooks, parsers and error and not-found handlers.
  void fastify.register(async (scope) => {
    for (const path of ALERT_NOTIFY_INTEGRATION_ROUTES) {
      scope.route({ method: 'POST', url: `/${path}`, config: INTEGRATION_ROUTE_CONFIG, handler: integrationHandler });
    }
    for (const path of ALERT_NOTIFY_FIRST_INTEGRATION_ROUTES) {
      scope.route({ method: 'POST', url: `/${path}`, config: FIRST_INTEGRATION_ROUTE_CONFIG, handler: firstIntegrationHandler });
    }
    for (const path of ALERT_NOTIFY_PROMETHEUS_ROUTES) {
      scope.route({ method: 'POST', url: `/${path}`, config: PROMETHEUS_ROUTE_CONFIG, handler: prometheusHandler });
    }
  });
}

/** A route whose parameter is empty (`/group//alerts/notify.json`) does not match: 404, as for the other routes. */
function hasEmptyParam(params: Record<string, string>): boolean {
  for (const name in params) if (params[name] === '') return true;
  return false;
}

/** The spec's response for a failure: a DomainError by its code, a cut PostgreSQL connection a 503, anything else a 500 with the request id. */
function fail(request: FastifyRequest, reply: FastifyReply, error: unknown): void {
  if (reply.sent) return;
  if (error instanceof DomainError) {
    sendDomainError(reply, error);
    return;
  }
  const correlationId = request.id;
  const path = request.url.split('?')[0];
  const description = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  if (isClientDisconnect(error, request)) {
    // The client hung up: nothing failed on this side.
    logger.debug(`${request.method} ${path}: the client closed the connection (correlation_id ${correlationId}): ${description}`);
    return;
  }
  if (isConnectionLost(error)) {
    // PostgreSQL cut the batch's connection (restart, failover) as it committed: not
    // acknowledged, the sender retries (Alertmanager and the like retry a 5xx).
    logger.warn(`${request.method} ${path}: its PostgreSQL connection was cut (correlation_id ${correlationId}): ${description}`);
    sendDomainError(reply, DomainError.unavailable());
    return;
  }
  logger.error(`${request.method} ${path} failed (correlation_id ${correlationId}): ${description}`, error instanceof Error ? error.stack : undefined);
  const { status, body } = internalErrorResponse(correlationId);
  reply.code(status).header('content-type', JSON_CONTENT_TYPE).send(JSON.stringify(body));
}
