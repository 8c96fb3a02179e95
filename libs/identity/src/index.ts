// libs/identity is built as one-way slices (docs/ci.md "Code layout"): a folder imports only the
// folders below it, and nothing in a folder imports the files directly in src/ (this index, the
// module, the controllers and the token authenticator, which compose them):
//
//   sessions/                                  sign-in sessions (store and routes)
//   use-cases/                                 account, token and OAuth use cases
//   users/  access-tokens/                     repositories and presenters
//   dto/ entities/ events/ tokens/ lockout/ throttle/   the shared core
//
// Check: `node scripts/folder-cycles.mjs identity`.
export { IDENTITY_EVENTS } from './events/identity.events';
export { presentAccessToken } from './access-tokens/access-token.presenter';
export { AccessTokensRepository } from './access-tokens/access-tokens.repository';
export { CreateResourceAccessTokenDto, ListAccessTokensDto } from './dto/create-access-token.dto';
export { CreateUserDto } from './dto/create-user.dto';
export { IdentityModule } from './identity.module';
export { toPrincipalUser } from './token-authenticator';
export { digestToken, hashPassword, verifyPassword } from './tokens/token-digest';
export { avatarUrl, presentUser, presentUserSummary } from './users/user.presenter';
export { UsersRepository } from './users/users.repository';
export { AuthenticateWithPasswordUseCase } from './use-cases/authenticate-with-password.use-case';
export { CreateAccessTokenUseCase } from './use-cases/create-access-token.use-case';
export { CreateUserAccountUseCase } from './use-cases/create-user-account.use-case';
export type { CreateUserCommand } from './use-cases/create-user-account.use-case';
export { RevokeAccessTokenUseCase } from './use-cases/revoke-access-token.use-case';
export { AccessTokenEntity } from './entities/access-token.entity';
export { OAuthTokenEntity } from './entities/oauth-token.entity';
export { UserEntity } from './entities/user.entity';
