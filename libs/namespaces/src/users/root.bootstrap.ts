import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { CreateAccessTokenUseCase, digestToken, hashPassword } from '@app/identity';
import { CreateUserUseCase } from './create-user.use-case';
import { RootUserRepository } from './root-user.repository';

export const ROOT_TOKEN_SCOPES = ['api', 'read_user', 'sudo'];

/**
 * With INITIAL_ROOT_TOKEN set, the first start creates the administrator `root` with a
 * personal access token of exactly that value. With INITIAL_ROOT_PASSWORD set, `root` is
 * created (if missing) with that password, or gets it while it has none (a root created by
 * the token alone has no password). Later starts change nothing: a password is never
 * overwritten.
 */
@Injectable()
export class RootUserBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger(RootUserBootstrap.name);

  constructor(
    private readonly config: AppConfig,
    private readonly rootUser: RootUserRepository,
    private readonly createUser: CreateUserUseCase,
    private readonly createToken: CreateAccessTokenUseCase,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { initialRootToken: secret, initialRootPassword: password } = this.config.auth;
    if (secret || password) await this.ensureRoot(secret, password);
  }

  async ensureRoot(secret: string | undefined, password?: string): Promise<{ userCreated: boolean; tokenCreated: boolean; passwordSet: boolean }> {
    return this.rootUser.underBootstrapLock(async (tx) => {
      let root = await this.rootUser.findRootWithPassword(tx);
      const userCreated = !root;
      let passwordSet = false;
      if (!root) {
        root = await this.createUser.execute({ username: 'root', name: 'Administrator', email: 'admin@example.com', admin: true, actorId: null, password }, tx);
        // Without INITIAL_ROOT_PASSWORD, root has no password (a later start may set one).
        if (!password) await this.rootUser.setPasswordDigest(tx, root.id, null);
        passwordSet = Boolean(password);
        this.logger.log('created the administrator root');
      } else if (password && !root.passwordDigest) {
        await this.rootUser.setPasswordDigest(tx, root.id, await hashPassword(password));
        passwordSet = true;
        this.logger.log('set the initial password of root');
      }
      if (!secret) return { userCreated, tokenCreated: false, passwordSet };
      if (await this.rootUser.tokenExists(tx, digestToken(secret))) return { userCreated, tokenCreated: false, passwordSet };
      await this.createToken.execute({ userId: root.id, name: 'initial-root-token', scopes: ROOT_TOKEN_SCOPES, secret, actorId: null }, tx);
      this.logger.log('created the initial root personal access token');
      return { userCreated, tokenCreated: true, passwordSet };
    });
  }
}
