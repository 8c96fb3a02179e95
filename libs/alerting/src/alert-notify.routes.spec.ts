import { DomainError, sendExactJsonContentType } from '@app/api';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerAlertNotifyRoutes } from './alert-notify.routes';
import type { ReceiveAlertNotificationCommand, ReceiveAlertNotificationUseCase } from './use-cases/receive-alert-notification.use-case';

describe(registerAlertNotifyRoutes.name, () => {
  /** The routes on a bare instance, with a use case that answers `outcome` and records its commands. */
  async function serve(outcome: (command: ReceiveAlertNotificationCommand) => Promise<unknown>) {
    const fastify = Fastify({ genReqId: () => 'req-1' });
    sendExactJsonContentType(fastify); // as the app's adapter does for every route
    const commands: ReceiveAlertNotificationCommand[] = [];
    const contexts: string[] = [];
    const receive = {
      execute: (command: ReceiveAlertNotificationCommand) => {
        commands.push(command);
        return outcome(command);
      },
    } as unknown as ReceiveAlertNotificationUseCase;
    registerAlertNotifyRoutes(fastify, {
      receive,
      inRequestContext: (request, fn) => {
        contexts.push(request.id);
        return fn();
      },
    });
    await fastify.ready();
    return { fastify, commands, contexts };
  }

  const post = (fastify: FastifyInstance, url: string) =>
    fastify.inject({ method: 'POST', url, headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, payload: '{"title":"t"}' });

  it('answers 200 with the alerts as JSON, the use case run in the request context', async () => {
    const { fastify, commands, contexts } = await serve(async () => ({ outcome: 'created', alerts: [{ iid: 3, title: 't' }] }));
    const named = await post(fastify, '/grp/sub/proj/alerts/notify/my-integration/0123abcd.json');
    expect(named.statusCode).toBe(200);
    expect(named.headers['content-type']).toBe('application/json');
    expect(JSON.parse(named.body)).toEqual([{ iid: 3, title: 't' }]);
    expect(commands[0]).toMatchObject({ projectPath: 'grp/sub/proj', endpointIdentifier: '0123abcd', authorization: 'Bearer k' });
    expect(commands[0].receivedAt).toBeInstanceOf(Date);
    expect(contexts).toEqual(['req-1']);

    const first = await post(fastify, '/grp/proj/alerts/notify.json');
    expect(first.statusCode).toBe(200);
    expect(commands[1]).toMatchObject({ projectPath: 'grp/proj', endpointIdentifier: null });

    const prometheus = await post(fastify, '/grp/sub/proj/prometheus/alerts/notify.json');
    expect(prometheus.statusCode).toBe(200);
    expect(commands[2]).toMatchObject({ projectPath: 'grp/sub/proj', endpointIdentifier: 'prometheus' });
    await fastify.close();
  });

  it('answers a DomainError with its spec status, headers and body', async () => {
    const { fastify } = await serve(async () => {
      throw DomainError.rateLimited(7);
    });
    const response = await post(fastify, '/grp/proj/alerts/notify.json');
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('7');
    expect(JSON.parse(response.body)).toEqual({ message: 'Retry later' });
    await fastify.close();
  });

  it('answers any other failure with a 500 naming only the request id', async () => {
    const { fastify } = await serve(async () => {
      throw new Error('connection terminated: secret detail');
    });
    const response = await post(fastify, '/grp/proj/alerts/notify.json');
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({ message: '500 Internal Server Error', correlation_id: 'req-1' });
    expect(response.body).not.toContain('secret');
    await fastify.close();
  });

  it('404 without calling the use case for an endpoint without .json or an empty path segment', async () => {
    const { fastify, commands } = await serve(async () => ({ outcome: 'created', alerts: [] }));
    const noSuffix = await post(fastify, '/grp/proj/alerts/notify/name/0123abcd');
    expect(noSuffix.statusCode).toBe(404);
    expect(JSON.parse(noSuffix.body)).toEqual({ error: '404 Not Found' });
    expect((await post(fastify, '/grp/proj/alerts/notify/name/.json')).statusCode).toBe(404);
    expect((await post(fastify, '/grp//alerts/notify.json')).statusCode).toBe(404);
    expect(commands).toEqual([]);
    await fastify.close();
  });
});
