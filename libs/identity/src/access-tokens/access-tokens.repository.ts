import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { ListAccessTokensDto } from '../dto/create-access-token.dto';
import { AccessTokenEntity } from '../entities/access-token.entity';
import { OAuthTokenEntity } from '../entities/oauth-token.entity';

/** What authentication reads of an access token and its user, in one statement. */
export interface AccessTokenCredentialRow {
  id: number;
  scopes: string[];
  expires_at: string | null;
  revoked: boolean;
  impersonation: boolean;
  resource_type: AccessTokenEntity['resourceType'];
  last_used_at: Date | null;
  user_id: number;
  username: string;
  is_admin: boolean;
  external: boolean;
  state: string;
  user_type: string;
}

@Injectable()
export class AccessTokensRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** By id, through `manager` when given (a transaction's), else the data source's. */
  findById(id: number, manager: EntityManager = this.dataSource.manager): Promise<AccessTokenEntity | null> {
    return manager.findOneBy(AccessTokenEntity, { id });
  }

  /** One lean statement per request: the token's and its user's columns that authentication reads, no entity hydration. */
  async findCredential(tokenDigest: string): Promise<AccessTokenCredentialRow | null> {
    const [row] = (await this.dataSource.query(
      `SELECT t.id, t.scopes, t.expires_at::text AS expires_at, t.revoked, t.impersonation, t.resource_type, t.last_used_at,
              u.id AS user_id, u.username, u.is_admin, u.external, u.state, u.user_type
       FROM access_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_digest = $1`,
      [tokenDigest],
    )) as AccessTokenCredentialRow[];
    return row ?? null;
  }

  /** Moves `last_used_at` to now, at most once a minute. */
  async touchLastUsed(id: number): Promise<void> {
    await this.dataSource.query(
      "UPDATE access_tokens SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')",
      [id],
    );
  }

  /** An OAuth access token by the digest of its value. */
  findOAuthToken(tokenDigest: string): Promise<OAuthTokenEntity | null> {
    return this.dataSource.getRepository(OAuthTokenEntity).findOneBy({ tokenDigest });
  }

  listQuery(
    scope: { userId?: number; impersonation?: boolean; resourceType: 'personal' | 'project' | 'group'; resourceId?: number },
    filter: ListAccessTokensDto = {},
  ): SelectQueryBuilder<AccessTokenEntity> {
    const qb = this.dataSource.getRepository(AccessTokenEntity).createQueryBuilder('t').where('t.resource_type = :rt', { rt: scope.resourceType });
    if (scope.resourceId !== undefined) qb.andWhere('t.resource_id = :rid', { rid: scope.resourceId });
    if (scope.userId !== undefined) qb.andWhere('t.user_id = :uid', { uid: scope.userId });
    if (scope.impersonation !== undefined) qb.andWhere('t.impersonation = :imp', { imp: scope.impersonation });
    if (filter.state === 'active') qb.andWhere('t.revoked = false AND (t.expires_at IS NULL OR t.expires_at > current_date)');
    if (filter.state === 'inactive') qb.andWhere('(t.revoked = true OR t.expires_at <= current_date)');
    if (filter.revoked !== undefined) qb.andWhere('t.revoked = :revoked', { revoked: filter.revoked === 'true' });
    if (filter.search) qb.andWhere('t.name ILIKE :q', { q: `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` });
    return qb.orderBy('t.id', 'DESC');
  }

  /** Inserts a new access token and returns the saved row. */
  insert(tx: EntityManager, fields: Partial<AccessTokenEntity>): Promise<AccessTokenEntity> {
    return tx.save(tx.create(AccessTokenEntity, fields));
  }

  /** The token as stored (column defaults and generated values filled in), failing with TypeORM's `EntityNotFoundError` when missing. */
  reload(id: number, manager: EntityManager = this.dataSource.manager): Promise<AccessTokenEntity> {
    return manager.findOneByOrFail(AccessTokenEntity, { id });
  }

  /** Marks the token revoked. */
  async revoke(tx: EntityManager, id: number): Promise<void> {
    await tx.update(AccessTokenEntity, id, { revoked: true });
  }

  /** The OAuth token of a refresh token's digest, its row locked (`FOR UPDATE`) until the transaction ends. */
  lockOAuthTokenByRefreshDigest(tx: EntityManager, refreshTokenDigest: string): Promise<OAuthTokenEntity | null> {
    return tx.findOne(OAuthTokenEntity, { where: { refreshTokenDigest }, lock: { mode: 'pessimistic_write' } });
  }

  /** Revokes an OAuth token (its access and refresh token stop working). */
  async revokeOAuthToken(tx: EntityManager, id: number): Promise<void> {
    await tx.update(OAuthTokenEntity, id, { revokedAt: new Date() });
  }

  /** Inserts an OAuth token, through `manager` when given (a transaction's), else the data source's. */
  insertOAuthToken(
    fields: Pick<OAuthTokenEntity, 'userId' | 'tokenDigest' | 'refreshTokenDigest' | 'scopes' | 'expiresIn'>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<OAuthTokenEntity> {
    const repo = manager.getRepository(OAuthTokenEntity);
    return repo.save(repo.create(fields));
  }
}
