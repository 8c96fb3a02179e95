import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { SkipAuth } from '@app/api/auth';
import { DomainError } from '@app/api/errors';
import { RawJsonBody } from '@app/api/http/route-config';
import type { FastifyRequest } from 'fastify';
import { ALERT_NOTIFY_FIRST_INTEGRATION_ROUTES, ALERT_NOTIFY_INTEGRATION_ROUTES, projectPathOfParams } from './notify-url';
import { ReceiveAlertNotificationUseCase } from './use-cases/receive-alert-notification.use-case';

/**
 * The notify endpoints monitoring tools post to, outside /api/v4 (listed in the gateway's
 * unprefixed routes). They authenticate with the integration key, not with user credentials.
 */
@Controller()
export class AlertNotifyController {
  constructor(private readonly receive: ReceiveAlertNotificationUseCase) {}

  /** `POST /:namespace/:project/alerts/notify/:name/:endpoint_identifier.json` */
  @Post(ALERT_NOTIFY_INTEGRATION_ROUTES)
  @SkipAuth()
  @RawJsonBody()
  @HttpCode(200)
  async notify(@Param() params: Record<string, string>, @Req() request: FastifyRequest): Promise<Array<{ iid: number; title: string }>> {
    const endpoint = params['endpoint'] ?? '';
    if (!endpoint.endsWith('.json') || endpoint.length <= '.json'.length) throw DomainError.routeNotFound();
    return this.run(params, endpoint.slice(0, -'.json'.length), request);
  }

  /** `POST /:namespace/:project/alerts/notify.json`: the project's first integration. */
  @Post(ALERT_NOTIFY_FIRST_INTEGRATION_ROUTES)
  @SkipAuth()
  @RawJsonBody()
  @HttpCode(200)
  notifyFirst(@Param() params: Record<string, string>, @Req() request: FastifyRequest): Promise<Array<{ iid: number; title: string }>> {
    return this.run(params, null, request);
  }

  private async run(params: Record<string, string>, endpointIdentifier: string | null, request: FastifyRequest) {
    const result = await this.receive.execute({
      projectPath: projectPathOfParams(params),
      endpointIdentifier,
      authorization: request.headers.authorization,
      body: request.body,
      receivedAt: new Date(),
    });
    return result.alerts;
  }
}
