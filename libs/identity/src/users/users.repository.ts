import { isDbInt, type KeysetListing, parseIdOrName } from '@app/api';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { ListUsersDto } from '../dto/list-users.dto';
import { UserEntity, UserState } from '../entities/user.entity';

/** Raw `UPDATE ... RETURNING` answers come as `[rows, count]` from the PostgreSQL driver. */
const returnedRows = <T>(result: unknown): T[] =>
  Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number' ? (result[0] as T[]) : (result as T[]);

/** Users are paged by keyset by id (newest first by default), name or username. */
export const USER_KEYSET: KeysetListing<UserEntity> = {
  keyset: { allowedOrderBy: ['id', 'name', 'username'], defaultOrderBy: 'id', defaultSort: 'desc' },
  columns: {
    idExpression: 'u.id',
    id: (user) => user.id,
    orderExpressions: { name: 'u.name', username: 'u.username' },
    orderValues: { name: (user) => user.name, username: (user) => user.username },
  },
};

@Injectable()
export class UsersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** By numeric id or case-insensitive username (an id beyond the integer range finds nobody). */
  findByIdOrUsername(ref: string | number): Promise<UserEntity | null> {
    const repo = this.dataSource.getRepository(UserEntity);
    const parsed = typeof ref === 'number' ? (isDbInt(ref) ? { id: ref } : null) : parseIdOrName(ref);
    if (parsed === null) return Promise.resolve(null);
    if ('id' in parsed) return repo.findOneBy({ id: parsed.id });
    return repo.createQueryBuilder('u').where('lower(u.username) = lower(:ref)', { ref: parsed.name }).getOne();
  }

  /** A human user by username or e-mail (case-insensitive), with its password digest, for sign-in. */
  findByLoginWithPassword(login: string): Promise<UserEntity | null> {
    return this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .addSelect('u.passwordDigest')
      .where('(lower(u.username) = lower(:login) OR lower(u.email) = lower(:login))', { login })
      .andWhere("u.user_type = 'human'")
      .getOne();
  }

  /**
   * A right password: clears the failure count and an expired lock, in one statement that the
   * row lock orders with concurrent attempts. False (nothing changed) while the account is locked.
   */
  async recordPasswordSuccess(userId: number, unlockInSeconds: number): Promise<boolean> {
    const result = await this.dataSource.query(
      `UPDATE users SET failed_attempts = 0, locked_at = NULL
       WHERE id = $1 AND (locked_at IS NULL OR locked_at <= now() - make_interval(secs => $2::double precision))
       RETURNING id`,
      [userId, unlockInSeconds],
    );
    return returnedRows(result).length > 0;
  }

  /**
   * A wrong password (or any password while locked), as Devise's `valid_for_authentication?`:
   * an expired lock is lifted first (the count starts again at 1), the count grows, and the
   * account is locked when it reaches `maxAttempts`; a running lock keeps its start.
   * Returns the new count and whether the account is now locked (null when the user no longer exists).
   */
  async recordPasswordFailure(userId: number, maxAttempts: number, unlockInSeconds: number): Promise<{ failedAttempts: number; locked: boolean } | null> {
    const result = await this.dataSource.query(
      `UPDATE users u
       SET failed_attempts = n.attempts,
           locked_at = CASE WHEN n.locked THEN u.locked_at WHEN n.attempts >= $2 THEN now() ELSE NULL END
       FROM (
         SELECT id,
                locked_at IS NOT NULL AND locked_at > now() - make_interval(secs => $3::double precision) AS locked,
                CASE WHEN locked_at IS NOT NULL AND locked_at <= now() - make_interval(secs => $3::double precision) THEN 1
                     ELSE failed_attempts + 1 END AS attempts
         FROM users WHERE id = $1 FOR UPDATE
       ) n
       WHERE u.id = n.id
       RETURNING u.failed_attempts, u.locked_at, u.locked_at IS NOT NULL AND u.locked_at > now() - make_interval(secs => $3::double precision) AS locked`,
      [userId, maxAttempts, unlockInSeconds],
    );
    const [row] = returnedRows<{ failed_attempts: number; locked: boolean }>(result);
    return row ? { failedAttempts: row.failed_attempts, locked: row.locked } : null;
  }

  /** By id, through `manager` when given (a transaction's), else the data source's. */
  findById(id: number, manager: EntityManager = this.dataSource.manager): Promise<UserEntity | null> {
    return manager.findOneBy(UserEntity, { id });
  }

  /** By case-insensitive username only (a numeric name is a name). */
  findByUsername(username: string): Promise<UserEntity | null> {
    return this.dataSource.getRepository(UserEntity).createQueryBuilder('u').where('lower(u.username) = lower(:username)', { username }).getOne();
  }

  /** The users among `ids` that exist, keyed by id. */
  async mapByIds(ids: number[]): Promise<Map<number, UserEntity>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const users = await this.dataSource.getRepository(UserEntity).findBy({ id: In(unique) });
    return new Map(users.map((u) => [u.id, u]));
  }

  /** The filtered list query of `GET /users` (pagination is applied by the caller). */
  listQuery(filter: ListUsersDto, options: { admin: boolean }): SelectQueryBuilder<UserEntity> {
    const qb = this.dataSource.getRepository(UserEntity).createQueryBuilder('u');
    if (filter.username) qb.andWhere('lower(u.username) = lower(:username)', { username: filter.username });
    if (filter.search) {
      qb.andWhere('(u.username ILIKE :q OR u.name ILIKE :q' + (options.admin ? ' OR u.email ILIKE :q)' : ')'), {
        q: `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
      });
    }
    if (filter.active) qb.andWhere("u.state = 'active'");
    if (filter.blocked) qb.andWhere("u.state = 'blocked'");
    if (!options.admin) qb.andWhere("u.state <> 'blocked'");
    if (options.admin && filter.external) qb.andWhere('u.external = true');
    if (options.admin && filter.admins) qb.andWhere('u.is_admin = true');
    if (filter.exclude_internal) qb.andWhere("u.user_type = 'human'");
    if (filter.created_after) qb.andWhere('u.created_at > :after', { after: filter.created_after });
    if (filter.created_before) qb.andWhere('u.created_at < :before', { before: filter.created_before });
    const orderBy = filter.order_by ?? 'id';
    const column = orderBy === 'created_at' ? 'u.createdAt' : orderBy === 'updated_at' ? 'u.updatedAt' : `u.${orderBy}`;
    const sort = (filter.sort ?? 'desc').toUpperCase() as 'ASC' | 'DESC';
    qb.orderBy(column, sort);
    if (orderBy !== 'id') qb.addOrderBy('u.id', sort);
    return qb;
  }

  /** The ids among `ids` of users that exist (unordered), in the caller's transaction. */
  async existingIds(tx: EntityManager, ids: number[]): Promise<number[]> {
    return (await tx.findBy(UserEntity, { id: In(ids) })).map((u) => u.id);
  }

  /** By case-insensitive username, in the caller's transaction. */
  findByUsernameIn(tx: EntityManager, username: string): Promise<UserEntity | null> {
    return tx.getRepository(UserEntity).createQueryBuilder('u').where('lower(u.username) = lower(:name)', { name: username }).getOne();
  }

  /** Inserts a new user (the entity's column defaults apply) and returns the saved row. */
  insert(tx: EntityManager, fields: Partial<UserEntity>): Promise<UserEntity> {
    return tx.save(tx.create(UserEntity, fields));
  }

  /** The user with its row locked (`FOR UPDATE`) until the transaction ends. */
  lockById(tx: EntityManager, id: number): Promise<UserEntity | null> {
    return tx.findOne(UserEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  async delete(tx: EntityManager, id: number): Promise<void> {
    await tx.delete(UserEntity, { id });
  }

  /** Sets the user's state (active, blocked). */
  async setState(tx: EntityManager, id: number, state: UserState): Promise<void> {
    await tx.update(UserEntity, id, { state });
  }

  /** The user, failing with TypeORM's `EntityNotFoundError` when missing. */
  findByIdOrFail(id: number, manager: EntityManager = this.dataSource.manager): Promise<UserEntity> {
    return manager.findOneByOrFail(UserEntity, { id });
  }
}
