import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { DataSource, EntityManager } from 'typeorm';
import { AccessTokensRepository } from '../access-tokens/access-tokens.repository';
import { UsersRepository } from '../users/users.repository';
import { digestToken, generateOpaqueToken } from '../tokens/token-digest';
import { AuthenticateWithPasswordUseCase } from './authenticate-with-password.use-case';

/** OAuth 2.0 error (RFC 6749 §5.2); presented as `{error, error_description}`, not in the API's error shape. */
export class OAuthError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'invalid_grant' | 'unsupported_grant_type' | 'invalid_scope',
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

export const OAUTH_SCOPES = ['api', 'read_api', 'read_user', 'sudo', 'read_repository', 'write_repository', 'openid', 'profile', 'email'];

export interface OAuthTokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
  created_at: number;
}

const INVALID_GRANT =
  'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.';

/** `POST /oauth/token` with the password and refresh_token grants. */
@Injectable()
export class IssueOAuthTokenUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    private readonly tokens: AccessTokensRepository,
    private readonly config: AppConfig,
    private readonly authenticateWithPassword: AuthenticateWithPasswordUseCase,
  ) {}

  async execute(params: Record<string, unknown>): Promise<OAuthTokenResponse> {
    const str = (key: string): string | undefined => (typeof params[key] === 'string' && params[key] !== '' ? (params[key] as string) : undefined);
    const grantType = str('grant_type');
    if (!grantType) throw new OAuthError('invalid_request', 'Missing required parameter: grant_type.');
    if (grantType === 'password') return this.passwordGrant(str('username'), str('password'), str('scope'));
    if (grantType === 'refresh_token') return this.refreshGrant(str('refresh_token'));
    throw new OAuthError('unsupported_grant_type', 'The authorization grant type is not supported by the authorization server.');
  }

  private async passwordGrant(username?: string, password?: string, scope?: string): Promise<OAuthTokenResponse> {
    if (!username) throw new OAuthError('invalid_request', 'Missing required parameter: username.');
    if (!password) throw new OAuthError('invalid_request', 'Missing required parameter: password.');
    const scopes = scope ? scope.split(/[\s+]+/).filter(Boolean) : ['api'];
    if (scopes.some((s) => !OAUTH_SCOPES.includes(s))) {
      throw new OAuthError('invalid_scope', 'The requested scope is invalid, unknown, or malformed.');
    }
    // Wrong passwords count towards the account lockout; a locked account is refused like a
    // wrong password (GitLab's Doorkeeper answers `invalid_grant` either way).
    const result = await this.authenticateWithPassword.execute({ login: username, password });
    if (result.outcome !== 'authenticated') throw new OAuthError('invalid_grant', INVALID_GRANT);
    return this.issue(result.user.id, scopes);
  }

  private async refreshGrant(refreshToken?: string): Promise<OAuthTokenResponse> {
    if (!refreshToken) throw new OAuthError('invalid_request', 'Missing required parameter: refresh_token.');
    return this.dataSource.transaction(async (tx) => {
      const old = await this.tokens.lockOAuthTokenByRefreshDigest(tx, digestToken(refreshToken));
      if (!old || old.revokedAt) throw new OAuthError('invalid_grant', INVALID_GRANT);
      const user = await this.users.findById(old.userId, tx);
      if (!user || user.state !== 'active') throw new OAuthError('invalid_grant', INVALID_GRANT);
      // Refresh tokens rotate: the old pair stops working at once.
      await this.tokens.revokeOAuthToken(tx, old.id);
      return this.issue(old.userId, old.scopes, tx);
    });
  }

  private async issue(userId: number, scopes: string[], manager?: EntityManager): Promise<OAuthTokenResponse> {
    const accessToken = generateOpaqueToken();
    const refreshToken = generateOpaqueToken();
    const saved = await this.tokens.insertOAuthToken(
      {
        userId,
        tokenDigest: digestToken(accessToken),
        refreshTokenDigest: digestToken(refreshToken),
        scopes,
        expiresIn: this.config.auth.oauthAccessTokenTtl,
      },
      manager,
    );
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: saved.expiresIn,
      refresh_token: refreshToken,
      scope: scopes.join(' '),
      created_at: Math.floor(saved.createdAt.getTime() / 1000),
    };
  }
}
