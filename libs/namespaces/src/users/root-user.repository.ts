import { Injectable } from '@nestjs/common';
import { AccessTokenEntity, UserEntity } from '@app/identity';
import { DataSource, EntityManager } from 'typeorm';

/** Fixed key of the advisory lock serializing the bootstrap across processes. Never change. */
const BOOTSTRAP_LOCK_KEY = 7_305_142_002;

/** The statements of the root bootstrap (`RootUserBootstrap`). */
@Injectable()
export class RootUserRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` in a transaction holding the bootstrap's advisory lock (one process at a time). */
  underBootstrapLock<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK_KEY]);
      return work(tx);
    });
  }

  /** The user `root` (case-insensitive), with its password digest. */
  findRootWithPassword(tx: EntityManager): Promise<UserEntity | null> {
    return tx.getRepository(UserEntity).createQueryBuilder('u').addSelect('u.passwordDigest').where("lower(u.username) = 'root'").getOne();
  }

  async setPasswordDigest(tx: EntityManager, userId: number, passwordDigest: string | null): Promise<void> {
    await tx.getRepository(UserEntity).update({ id: userId }, { passwordDigest });
  }

  /** Some access token has this digest. */
  async tokenExists(tx: EntityManager, tokenDigest: string): Promise<boolean> {
    return (await tx.getRepository(AccessTokenEntity).findOneBy({ tokenDigest })) !== null;
  }
}
