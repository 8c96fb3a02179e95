import { Module } from '@nestjs/common';
import { AUTHENTICATOR } from '@app/api';
import { NamespacesModule } from '@app/namespaces';
import { SettingsModule } from '@app/settings';
import { AccessTokensController } from './access-tokens.controller';
import { AccessTokensRepository } from './access-tokens.repository';
import { IdentityBootstrap } from './identity.bootstrap';
import { OAuthController } from './oauth.controller';
import { SessionStore } from './sessions/session.store';
import { SessionsController } from './sessions/sessions.controller';
import { ResourceAccessTokensController } from './resource-access-tokens.controller';
import { TokenAuthenticator } from './token-authenticator';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { CreateAccessTokenUseCase } from './use-cases/create-access-token.use-case';
import { CreateResourceAccessTokenUseCase } from './use-cases/create-resource-access-token.use-case';
import { CreateUserUseCase } from './use-cases/create-user.use-case';
import { DeleteUserUseCase } from './use-cases/delete-user.use-case';
import { IssueOAuthTokenUseCase } from './use-cases/issue-oauth-token.use-case';
import { RevokeAccessTokenUseCase } from './use-cases/revoke-access-token.use-case';
import { SetUserStateUseCase } from './use-cases/set-user-state.use-case';

const USE_CASES = [
  CreateUserUseCase,
  SetUserStateUseCase,
  DeleteUserUseCase,
  CreateAccessTokenUseCase,
  RevokeAccessTokenUseCase,
  CreateResourceAccessTokenUseCase,
  IssueOAuthTokenUseCase,
];

/** Users, access tokens, OAuth and the authenticator behind the API's AuthGuard. */
@Module({
  imports: [NamespacesModule, SettingsModule],
  controllers: [UsersController, AccessTokensController, ResourceAccessTokensController, OAuthController, SessionsController],
  providers: [
    ...USE_CASES,
    UsersRepository,
    AccessTokensRepository,
    SessionStore,
    TokenAuthenticator,
    { provide: AUTHENTICATOR, useExisting: TokenAuthenticator },
    IdentityBootstrap,
  ],
  exports: [AUTHENTICATOR, UsersRepository, CreateUserUseCase, CreateAccessTokenUseCase, IdentityBootstrap],
})
export class IdentityModule {}
