import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { presentUserSummary, UsersRepository } from '@app/identity';
import {
  IterationSnapshot,
  iterationSnapshot,
  IterationsRepository,
  MilestoneSnapshot,
  milestoneSnapshot,
  presentIterationSnapshot,
  MilestonesRepository,
  presentMilestoneSnapshot,
} from '@app/issues';
import type { ObjectLiteral } from 'typeorm';
import type {
  ResourceIterationEventEntity,
  ResourceMilestoneEventEntity,
  ResourceStateEventEntity,
  ResourceWeightEventEntity,
} from './entities/resource-events.entity';
import type { ResourceEventKind, ResourceOwner } from './reads/resource-events.repository';

/**
 * Resource events in the spec's shapes. A milestone or iteration is shown as it is now, or as
 * the event recorded it when it no longer exists.
 */
@Injectable()
export class ResourceEventPresenter {
  constructor(
    private readonly users: UsersRepository,
    private readonly milestones: MilestonesRepository,
    private readonly iterations: IterationsRepository,
    private readonly config: AppConfig,
  ) {}

  async present(kind: ResourceEventKind, rows: ObjectLiteral[], owner: ResourceOwner): Promise<Record<string, unknown>[]> {
    const externalUrl = this.config.http.externalUrl;
    const userIds = rows.map((r) => r.userId as number | null).filter((id): id is number => id !== null);
    const users = new Map([...(await this.users.mapByIds(userIds)).values()].map((u) => [u.id, presentUserSummary(u, externalUrl)]));
    const common = (r: ObjectLiteral) => ({
      id: r.id as number,
      user: (r.userId !== null && users.get(r.userId)) || null,
      created_at: (r.createdAt as Date).toISOString(),
    });
    const resource = { resource_type: owner.kind, resource_id: owner.id };

    switch (kind) {
      case 'milestone': {
        const events = rows as ResourceMilestoneEventEntity[];
        const current = new Map((await this.milestones.findByIds(events.map((e) => e.milestoneId))).map((m) => [m.id, milestoneSnapshot(m)!]));
        const projectPath = `${owner.project.namespace.fullPath}/${owner.project.path}`;
        return events.map((e) => {
          const snapshot = current.get(e.milestoneId) ?? (e.milestoneSnapshot as MilestoneSnapshot | null);
          const webPath =
            snapshot?.project_id === owner.project.id
              ? projectPath
              : snapshot?.group_id === owner.project.namespace.id
                ? `groups/${owner.project.namespace.fullPath}`
                : undefined;
          const milestone = snapshot ? presentMilestoneSnapshot(snapshot, externalUrl, webPath) : null;
          return { ...common(e), ...resource, milestone, action: e.action };
        });
      }
      case 'state':
        return (rows as ResourceStateEventEntity[]).map((e) => ({
          ...common(e),
          ...resource,
          state: e.state,
          ...(e.sourceCommit ? { source_commit: e.sourceCommit } : {}),
          ...(e.sourceMergeRequestId ? { source_merge_request: { id: e.sourceMergeRequestId } } : {}),
        }));
      case 'iteration': {
        const events = rows as ResourceIterationEventEntity[];
        const current = new Map((await this.iterations.findByIds(events.map((e) => e.iterationId))).map((i) => [i.id, iterationSnapshot(i)!]));
        const snapshots = events.map((e) => current.get(e.iterationId) ?? (e.iterationSnapshot as IterationSnapshot | null));
        const paths = await this.iterations.groupPaths(snapshots.flatMap((snapshot) => (snapshot ? [snapshot.group_id] : [])));
        return events.map((e, index) => {
          const snapshot = snapshots[index];
          return { ...common(e), ...resource, iteration: snapshot ? presentIterationSnapshot(snapshot, externalUrl, paths) : null, action: e.action };
        });
      }
      case 'weight':
        return (rows as ResourceWeightEventEntity[]).map((e) => ({ ...common(e), issue_id: owner.id, weight: e.weight }));
    }
  }
}
