import { Authenticator, CredentialKind, Credentials, Principal, PrincipalUser } from '@app/api';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { AccessTokensRepository } from './access-tokens/access-tokens.repository';
import { UserEntity } from './entities';
import { SessionStore } from './sessions/session.store';
import { UsersRepository } from './users/users.repository';
import { digestToken } from './tokens/token-digest';

export const toPrincipalUser = (user: UserEntity): PrincipalUser => ({
  id: user.id,
  username: user.username,
  isAdmin: user.isAdmin,
  external: user.external,
  state: user.state,
  userType: user.userType,
});

const today = (): string => new Date().toISOString().slice(0, 10);

/** Resolves personal/impersonation/project/group access tokens and OAuth tokens to a principal. */
@Injectable()
export class TokenAuthenticator implements Authenticator {
  constructor(
    private readonly tokens: AccessTokensRepository,
    private readonly users: UsersRepository,
    private readonly config: AppConfig,
    private readonly sessions: SessionStore,
  ) {}

  async authenticate(credentials: Credentials, options: { jobTokenAllowed: boolean; safeMethod: boolean }): Promise<Principal | null> {
    // One credential is used, in GitLab's order of precedence.
    const personal = credentials.privateToken;
    if (personal) return this.fromAccessToken(personal);
    const bearer = credentials.bearer ?? credentials.accessToken;
    if (bearer) return (await this.fromAccessToken(bearer)) ?? (await this.fromOAuthToken(bearer));
    if (credentials.session) return this.fromSession(credentials.session, credentials.csrfToken, options.safeMethod);
    // A job token authenticates only the CI routes that read it themselves (`GET /job`, the
    // runner's job calls, artifact downloads, git fetch); none of the routes checked here.
    return null;
  }

  async findSudoUser(identifier: string): Promise<PrincipalUser | null> {
    const user = await this.users.findByIdOrUsername(identifier);
    return user ? toPrincipalUser(user) : null;
  }

  private async fromAccessToken(token: string): Promise<Principal | null> {
    const row = await this.tokens.findCredential(digestToken(token));
    if (!row || row.revoked || (row.expires_at && row.expires_at <= today()) || row.state !== 'active') return null;
    if (row.impersonation && !this.config.auth.impersonationEnabled) return null;
    // `last_used_at` moves at most once a minute: no statement at all while the loaded value is recent.
    if (!row.last_used_at || row.last_used_at.getTime() < Date.now() - 60_000) {
      void this.tokens.touchLastUsed(row.id).catch(() => undefined);
    }
    const credential: CredentialKind = row.impersonation ? 'impersonation' : row.resource_type === 'personal' ? 'personal' : row.resource_type;
    const user: PrincipalUser = {
      id: row.user_id,
      username: row.username,
      isAdmin: row.is_admin,
      external: row.external,
      state: row.state,
      userType: row.user_type,
    };
    return { user, credential, scopes: row.scopes, tokenId: row.id };
  }

  private async fromSession(cookie: string, csrfToken: string | undefined, safeMethod: boolean): Promise<Principal | null> {
    const session = await this.sessions.find(cookie);
    if (!session) return null;
    // A cookie is sent by browsers on cross-site requests too: writes need the CSRF token.
    if (!safeMethod && !SessionStore.csrfMatches(session, csrfToken)) return null;
    const user = await this.users.findById(session.userId);
    if (!user || user.state !== 'active') return null;
    return { user: toPrincipalUser(user), credential: 'session', scopes: [], tokenId: null };
  }

  private async fromOAuthToken(token: string): Promise<Principal | null> {
    const row = await this.tokens.findOAuthToken(digestToken(token));
    if (!row || row.revokedAt || row.createdAt.getTime() + row.expiresIn * 1000 <= Date.now()) return null;
    const user = await this.users.findById(row.userId);
    if (!user || user.state !== 'active') return null;
    return { user: toPrincipalUser(user), credential: 'oauth', scopes: row.scopes, tokenId: row.id };
  }
}
