import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { AlertHttpIntegrationEntity } from '../entities/alert-http-integration.entity';

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
    const rows = unique.length
      ? await this.dataSource.getRepository(AlertHttpIntegrationEntity).find({ where: { id: In(unique) }, select: { id: true, name: true } })
      : [];
    return new Map(rows.map((i) => [i.id, i]));
  }

  listForProject(projectId: number): Promise<AlertHttpIntegrationEntity[]> {
    return this.dataSource.getRepository(AlertHttpIntegrationEntity).find({ where: { projectId }, order: { id: 'ASC' } });
  }

  findInProject(projectId: number, id: number, manager: EntityManager = this.dataSource.manager): Promise<AlertHttpIntegrationEntity | null> {
    return manager.getRepository(AlertHttpIntegrationEntity).findOneBy({ projectId, id });
  }

  findById(manager: EntityManager, id: number): Promise<AlertHttpIntegrationEntity | null> {
    return manager.getRepository(AlertHttpIntegrationEntity).findOneBy({ id });
  }

  /** Locks an integration of a project for a change (its settings or its key). */
  lockInProject(manager: EntityManager, projectId: number, id: number): Promise<AlertHttpIntegrationEntity | null> {
    return manager
      .getRepository(AlertHttpIntegrationEntity)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where('i.id = :id AND i.project_id = :projectId', { id, projectId })
      .getOne();
  }

  /** Locks the project's row: serializes the creations of integrations in one project, so the one-integration rules hold under concurrency. */
  async lockProjectForCreation(manager: EntityManager, projectId: number): Promise<void> {
    await manager.query('SELECT id FROM projects WHERE id = $1 FOR UPDATE', [projectId]);
  }

  /** Inserts a new integration. */
  insert(manager: EntityManager, values: Omit<AlertHttpIntegrationEntity, 'id' | 'createdAt' | 'updatedAt'>): Promise<AlertHttpIntegrationEntity> {
    return manager.save(manager.create(AlertHttpIntegrationEntity, values));
  }

  /** Saves the changed settings of a (locked) integration. */
  save(manager: EntityManager, integration: AlertHttpIntegrationEntity): Promise<AlertHttpIntegrationEntity> {
    return manager.getRepository(AlertHttpIntegrationEntity).save(integration);
  }

  /** Replaces the key digest of an integration. */
  async setTokenDigest(manager: EntityManager, id: number, tokenDigest: string): Promise<void> {
    await manager.getRepository(AlertHttpIntegrationEntity).update({ id }, { tokenDigest });
  }

  /** Deletes an integration of a project: its id and name, or null when the project has none with that id. */
  async deleteInProject(manager: EntityManager, projectId: number, id: number): Promise<{ id: number; name: string } | null> {
    const deleted = (await manager.query('DELETE FROM alert_http_integrations WHERE id = $1 AND project_id = $2 RETURNING id, name', [id, projectId])) as [
      Array<{ id: number; name: string }>,
      number,
    ];
    return deleted[0]?.[0] ?? null;
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
