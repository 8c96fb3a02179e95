import { Body, Controller, Post, Query, Res } from '@nestjs/common';
import { SkipAuth } from '@app/api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ProtectedPath } from './throttle/protected-path-throttle.guard';
import { IssueOAuthTokenUseCase, OAuthError } from './use-cases/issue-oauth-token.use-case';

/** The grant type of a token request (body first, then query, as the handler reads it). */
const grantTypeOf = (request: FastifyRequest): unknown => {
  const body = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
  return body.grant_type ?? (request.query as Record<string, unknown> | undefined)?.grant_type;
};

/** OAuth 2.0 token endpoint (outside /api/v4, as in GitLab). */
@Controller('oauth')
export class OAuthController {
  constructor(private readonly issueToken: IssueOAuthTokenUseCase) {}

  /**
   * The password grant is a protected path (at most 10 a minute per IP by default): it is a
   * password guess like the web sign-in. Refresh grants are not counted (GitLab took
   * `/oauth/token` out of its protected paths because they throttled ordinary OAuth clients).
   */
  @Post('token')
  @SkipAuth()
  @ProtectedPath((request) => grantTypeOf(request) === 'password')
  async token(@Body() body: unknown, @Query() query: Record<string, unknown>, @Res() reply: FastifyReply): Promise<void> {
    const params = { ...query, ...(body && typeof body === 'object' ? (body as Record<string, unknown>) : {}) };
    reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
    try {
      const token = await this.issueToken.execute(params);
      await reply.status(200).send(token);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      await reply.status(error.status).send({ error: error.error, error_description: error.description });
    }
  }
}
