import { isDbInt, type KeysetListing, parseIdOrName } from '@app/api';
import { Injectable } from '@nestjs/common';
import { DataSource, In, SelectQueryBuilder } from 'typeorm';
import { ListUsersDto } from './dto/list-users.dto';
import { UserEntity } from './entities';

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

  findById(id: number): Promise<UserEntity | null> {
    return this.dataSource.getRepository(UserEntity).findOneBy({ id });
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
}
