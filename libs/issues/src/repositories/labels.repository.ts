import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { uniqueViolation } from '@app/database';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { LabelEntity } from '../entities/label.entity';

@Injectable()
export class LabelsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A project's labels and those of its ancestor groups, by title (pagination is applied by the caller). */
  projectListQuery(projectId: number, groupIds: number[]): SelectQueryBuilder<LabelEntity> {
    const qb = this.dataSource.manager.createQueryBuilder(LabelEntity, 'l').where('l.project_id = :projectId', { projectId });
    if (groupIds.length > 0) qb.orWhere('l.group_id IN (:...groups)', { groups: groupIds });
    return qb.orderBy('l.title', 'ASC').addOrderBy('l.id', 'ASC');
  }

  /** The labels of a group and of its ancestors (`groupIds`), by title. */
  groupListQuery(groupIds: number[]): SelectQueryBuilder<LabelEntity> {
    return this.dataSource.manager
      .createQueryBuilder(LabelEntity, 'l')
      .where('l.group_id IN (:...ancestors)', { ancestors: groupIds })
      .orderBy('l.title', 'ASC')
      .addOrderBy('l.id', 'ASC');
  }

  /**
   * A label by id or, when `raw` is not an integer, by title (GitLab's `:label_id`): of the
   * project or group itself, and with `ancestors` also of those groups. 404 `Label Not Found`.
   */
  async find(owner: { projectId: number | null; groupId: number | null }, ancestors: number[], raw: string): Promise<LabelEntity> {
    const qb = this.dataSource.manager.createQueryBuilder(LabelEntity, 'l');
    const scope = owner.projectId !== null ? 'l.project_id = :projectId' : 'l.group_id = :groupId';
    const groups = ancestors.filter((id) => id !== owner.groupId);
    qb.where(groups.length > 0 ? `(${scope} OR l.group_id IN (:...groups))` : scope, { projectId: owner.projectId, groupId: owner.groupId, groups });
    const id = /^\d{1,9}$/.test(raw) ? Number(raw) : null;
    const byId = id !== null ? await qb.clone().andWhere('l.id = :id', { id }).getOne() : null;
    // By title: the label of the project or group itself first, then the nearest group's.
    const nearness = (l: LabelEntity): number => (l.projectId !== null ? Number.MAX_SAFE_INTEGER : ancestors.indexOf(l.groupId ?? -1));
    const label = byId ?? (await qb.andWhere('l.title = :title', { title: raw }).getMany()).sort((a, b) => nearness(b) - nearness(a))[0];
    if (!label) throw DomainError.notFound('Label');
    return label;
  }

  /**
   * Renames, recolors or redescribes a label. Issues, merge requests and epics keep their labels
   * by name: a rename renames it on those the label reaches (the project's; a group label's: of
   * the group's projects and subgroups, except projects with a label of that name of their own),
   * in the same transaction. A title taken in the same project or group: 400, as GitLab.
   */
  async update(label: LabelEntity, changes: { title?: string; color?: string; description?: string }): Promise<LabelEntity> {
    const previous = label.title;
    try {
      return await this.dataSource.transaction(async (tx) => {
        for (const [key, value] of Object.entries(changes)) if (value !== undefined) Object.assign(label, { [key]: value });
        const saved = await tx.save(label);
        if (changes.title !== undefined && changes.title !== previous) await this.relabel(tx, label, previous, changes.title);
        return saved;
      });
    } catch (error) {
      if (uniqueViolation(error) !== null) throw DomainError.invalid({ title: ['has already been taken'] });
      throw error;
    }
  }

  /** Deletes a label and takes its name off the issues, merge requests and epics it reaches, in one transaction. */
  async delete(label: LabelEntity): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      await tx.delete(LabelEntity, { id: label.id });
      await this.relabel(tx, label, label.title, null);
    });
  }

  /** Replaces (`to`) or removes (`to` null) the name `from` where `label` reaches, keeping order and no repeats. */
  private async relabel(tx: EntityManager, label: LabelEntity, from: string, to: string | null): Promise<void> {
    const next = `ARRAY(SELECT x FROM unnest(${to === null ? 'array_remove(t.labels, $1)' : 'array_replace(t.labels, $1, $3)'}) WITH ORDINALITY AS u(x, n) GROUP BY x ORDER BY min(n))`;
    const parameters = to === null ? [from, label.projectId ?? label.groupId] : [from, label.projectId ?? label.groupId, to];
    if (label.projectId !== null) {
      for (const table of ['issues', 'merge_requests'])
        await tx.query(`UPDATE ${table} t SET labels = ${next} WHERE t.project_id = $2 AND $1 = ANY(t.labels)`, parameters);
      return;
    }
    const projects = `SELECT p.id FROM projects p JOIN namespaces ns ON ns.id = p.namespace_id WHERE $2 = ANY(ns.traversal_ids)`;
    const shadowed = `EXISTS (SELECT 1 FROM labels pl WHERE pl.project_id = t.project_id AND pl.title = $1)`;
    for (const table of ['issues', 'merge_requests']) {
      await tx.query(`UPDATE ${table} t SET labels = ${next} WHERE t.project_id IN (${projects}) AND $1 = ANY(t.labels) AND NOT ${shadowed}`, parameters);
    }
    await tx.query(
      `UPDATE epics t SET labels = ${next} WHERE t.group_id IN (SELECT ns.id FROM namespaces ns WHERE $2 = ANY(ns.traversal_ids)) AND $1 = ANY(t.labels)`,
      parameters,
    );
  }

  /** Stores a new label; 409 when its title is taken in the same project or group. */
  async insert(label: LabelEntity): Promise<LabelEntity> {
    try {
      return await this.dataSource.manager.save(label);
    } catch (error) {
      if (uniqueViolation(error) !== null) throw DomainError.conflict('Label already exists');
      throw error;
    }
  }

  /** Stores a label read from a project export, in the import's transaction; its id. */
  async insertImported(tx: EntityManager, label: QueryDeepPartialEntity<LabelEntity>): Promise<number> {
    const result = await tx.insert(LabelEntity, label);
    return result.identifiers[0].id as number;
  }
}
