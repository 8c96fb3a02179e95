import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { AlertHttpIntegrationEntity } from './entities/alert-http-integration.entity';

/** Which integration a notify URL names. */
export const FIRST_HTTP_INTEGRATION = 'first-http';
export const PROMETHEUS_INTEGRATION = 'prometheus';
export type NotifySelector = typeof FIRST_HTTP_INTEGRATION | typeof PROMETHEUS_INTEGRATION | { endpointIdentifier: string };

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

  /** HTTP (generic) integrations of a project; a Prometheus integration does not count. */
  countInProject(manager: EntityManager, projectId: number): Promise<number> {
    return manager.getRepository(AlertHttpIntegrationEntity).countBy({ projectId, type: 'http' });
  }

  /**
   * The integration a notify URL names, with its key digest: by endpoint identifier (any type),
   * the project's first HTTP integration (`alerts/notify.json`), or its Prometheus integration
   * (`prometheus/alerts/notify.json`).
   */
  async findForNotify(projectId: number, selector: NotifySelector): Promise<IntegrationWithDigest | null> {
    const qb = this.dataSource
      .getRepository(AlertHttpIntegrationEntity)
      .createQueryBuilder('i')
      .addSelect('i.tokenDigest')
      .where('i.project_id = :projectId', { projectId });
    if (selector === FIRST_HTTP_INTEGRATION) qb.andWhere("i.type = 'http'").orderBy('i.id', 'ASC').limit(1);
    else if (selector === PROMETHEUS_INTEGRATION) qb.andWhere("i.type = 'prometheus'");
    else qb.andWhere('i.endpoint_identifier = :endpointIdentifier', { endpointIdentifier: selector.endpointIdentifier });
    return (await qb.getOne()) as IntegrationWithDigest | null;
  }
}
