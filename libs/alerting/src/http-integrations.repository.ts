import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { AlertHttpIntegrationEntity } from './entities/alert-http-integration.entity';

export type IntegrationWithDigest = AlertHttpIntegrationEntity & { tokenDigest: string };

@Injectable()
export class HttpIntegrationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Ids and names of the integrations `ids` (for presenting alerts), keyed by id. */
  async namesByIds(ids: number[]): Promise<Map<number, Pick<AlertHttpIntegrationEntity, 'id' | 'name'>>> {
    const unique = [...new Set(ids)];
    const rows = unique.length ? await this.dataSource.getRepository(AlertHttpIntegrationEntity).find({ where: { id: In(unique) }, select: { id: true, name: true } }) : [];
    return new Map(rows.map((i) => [i.id, i]));
  }

  listForProject(projectId: number): Promise<AlertHttpIntegrationEntity[]> {
    return this.dataSource.getRepository(AlertHttpIntegrationEntity).find({ where: { projectId }, order: { id: 'ASC' } });
  }

  findInProject(projectId: number, id: number, manager: EntityManager = this.dataSource.manager): Promise<AlertHttpIntegrationEntity | null> {
    return manager.getRepository(AlertHttpIntegrationEntity).findOneBy({ projectId, id });
  }

  countInProject(manager: EntityManager, projectId: number): Promise<number> {
    return manager.getRepository(AlertHttpIntegrationEntity).countBy({ projectId });
  }

  /** The integration a notify URL names (by endpoint identifier, or the project's first one), with its key digest. */
  async findForNotify(projectId: number, endpointIdentifier: string | null): Promise<IntegrationWithDigest | null> {
    const qb = this.dataSource
      .getRepository(AlertHttpIntegrationEntity)
      .createQueryBuilder('i')
      .addSelect('i.tokenDigest')
      .where('i.project_id = :projectId', { projectId });
    if (endpointIdentifier === null) qb.orderBy('i.id', 'ASC').limit(1);
    else qb.andWhere('i.endpoint_identifier = :endpointIdentifier', { endpointIdentifier });
    return (await qb.getOne()) as IntegrationWithDigest | null;
  }
}
