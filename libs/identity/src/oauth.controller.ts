import { Body, Controller, Post, Query, Res } from '@nestjs/common';
import { SkipAuth } from '@app/api';
import type { FastifyReply } from 'fastify';
import { IssueOAuthTokenUseCase, OAuthError } from './use-cases/issue-oauth-token.use-case';

/** OAuth 2.0 token endpoint (outside /api/v4, as in GitLab). */
@Controller('oauth')
export class OAuthController {
  constructor(private readonly issueToken: IssueOAuthTokenUseCase) {}

  @Post('token')
  @SkipAuth()
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
