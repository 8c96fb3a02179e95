import { Module } from '@nestjs/common';
import { AUTHENTICATOR } from '@app/api';
import { CustomAttributeFiltersModule } from '@app/custom-attributes';
import { SettingsModule } from '@app/settings';
import { AccessTokensController } from './access-tokens.controller';
import { AccessTokensRepository } from './access-tokens/access-tokens.repository';
import { OAuthController } from './oauth.controller';
import { SessionStore } from './sessions/session.store';
import { SessionsController } from './sessions/sessions.controller';
import { ProtectedPathThrottleGuard } from './throttle/protected-path-throttle.guard';
import { TokenAuthenticator } from './token-authenticator';
import { UsersController } from './users.controller';
import { UsersRepository } from './users/users.repository';
import { AuthenticateWithPasswordUseCase } from './use-cases/authenticate-with-password.use-case';
import { CreateAccessTokenUseCase } from './use-cases/create-access-token.use-case';
import { CreateUserAccountUseCase } from './use-cases/create-user-account.use-case';
import { IssueOAuthTokenUseCase } from './use-cases/issue-oauth-token.use-case';
import { RevokeAccessTokenUseCase } from './use-cases/revoke-access-token.use-case';
import { SetUserStateUseCase } from './use-cases/set-user-state.use-case';

const USE_CASES = [
  CreateUserAccountUseCase,
  SetUserStateUseCase,
  CreateAccessTokenUseCase,
  RevokeAccessTokenUseCase,
  IssueOAuthTokenUseCase,
  AuthenticateWithPasswordUseCase,
];

/**
 * Users, access tokens, sessions, OAuth and the authenticator behind the API's AuthGuard. Below
 * the namespaces lib: creating and deleting users (personal namespaces, memberships), project and
 * group access tokens (bot members) and the root bootstrap live in `@app/namespaces`.
 */
@Module({
  imports: [SettingsModule, CustomAttributeFiltersModule],
  controllers: [UsersController, AccessTokensController, OAuthController, SessionsController],
  providers: [
    ...USE_CASES,
    UsersRepository,
    AccessTokensRepository,
    SessionStore,
    ProtectedPathThrottleGuard,
    TokenAuthenticator,
    { provide: AUTHENTICATOR, useExisting: TokenAuthenticator },
  ],
  exports: [
    AUTHENTICATOR,
    AuthenticateWithPasswordUseCase,
    UsersRepository,
    AccessTokensRepository,
    CreateUserAccountUseCase,
    CreateAccessTokenUseCase,
    RevokeAccessTokenUseCase,
  ],
})
export class IdentityModule {}
