import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { DataSource } from 'typeorm';
import { AccessTokenEntity, CreateAccessTokenUseCase, digestToken, UserEntity } from '@app/identity';
import { CreateUserUseCase } from './create-user.use-case';

/** Fixed key of the advisory lock serializing the bootstrap across processes. Never change. */
const BOOTSTRAP_LOCK_KEY = 7_305_142_002;
export const ROOT_TOKEN_SCOPES = ['api', 'read_user', 'sudo'];

/**
 * With INITIAL_ROOT_TOKEN set, the first start creates the administrator `root` with a
 * personal access token of exactly that value. Later starts change nothing.
 */
@Injectable()
export class RootUserBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger(RootUserBootstrap.name);

  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly createUser: CreateUserUseCase,
    private readonly createToken: CreateAccessTokenUseCase,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const secret = this.config.auth.initialRootToken;
    if (secret) await this.ensureRoot(secret);
  }

  async ensureRoot(secret: string): Promise<{ userCreated: boolean; tokenCreated: boolean }> {
    return this.dataSource.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK_KEY]);
      let root = await tx.getRepository(UserEntity).createQueryBuilder('u').where("lower(u.username) = 'root'").getOne();
      const userCreated = !root;
      if (!root) {
        root = await this.createUser.execute(
          { username: 'root', name: 'Administrator', email: 'admin@example.com', admin: true, actorId: null },
          tx,
        );
        this.logger.log('created the administrator root');
      }
      const existing = await tx.getRepository(AccessTokenEntity).findOneBy({ tokenDigest: digestToken(secret) });
      if (existing) return { userCreated, tokenCreated: false };
      await this.createToken.execute({ userId: root.id, name: 'initial-root-token', scopes: ROOT_TOKEN_SCOPES, secret, actorId: null }, tx);
      this.logger.log('created the initial root personal access token');
      return { userCreated, tokenCreated: true };
    });
  }
}
