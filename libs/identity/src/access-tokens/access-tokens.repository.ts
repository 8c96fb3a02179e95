import { Injectable } from '@nestjs/common';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import { ListAccessTokensDto } from '../dto/create-access-token.dto';
import { AccessTokenEntity } from '../entities/access-token.entity';

@Injectable()
export class AccessTokensRepository {
  constructor(private readonly dataSource: DataSource) {}

  findById(id: number): Promise<AccessTokenEntity | null> {
    return this.dataSource.getRepository(AccessTokenEntity).findOneBy({ id });
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
}
