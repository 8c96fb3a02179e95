import { Injectable } from '@nestjs/common';
import { tierAtLeast } from '@app/api';
import { UsersRepository } from '@app/identity';
import { AppConfig } from '@app/config';
import { OutboxService } from '@app/messaging';
import { ACCESS_LEVELS } from '@app/namespaces';
import type { ProjectWithNamespace } from '@app/namespaces';
import { DataSource, EntityManager } from 'typeorm';
import { IID_USAGES } from '../entities/internal-id.entity';
import { IssueEntity, IssueSeverity, IssueType } from '../entities/issue.entity';
import { InternalIdsRepository } from '../repositories/internal-ids.repository';
import { IssuesRepository } from '../repositories/issues.repository';
import { IterationsRepository } from '../repositories/iterations.repository';
import { MilestonesRepository } from '../repositories/milestones.repository';
import { existingUserIds, normalizeLabels, resolveIteration, resolveMilestone } from '../relations/issuable-relations';
import { ISSUES_EVENTS, issueEvent, iterationSnapshot, milestoneSnapshot } from '../events/issues.events';

export interface CreateIssueCommand {
  actorId: number;
  /** The actor's access level on the project: below Reporter, metadata (milestone, labels...) is ignored as in GitLab. */
  actorLevel: number;
  project: ProjectWithNamespace;
  title: string;
  description?: string | null;
  confidential?: boolean;
  issueType?: IssueType;
  /** Incidents: `unknown` by default. */
  severity?: IssueSeverity;
  labels?: string[];
  assigneeIds?: number[];
  milestoneId?: number | null;
  /** PREMIUM. */
  iterationId?: number | null;
  /** PREMIUM. */
  weight?: number | null;
}

/**
 * Opens an issue with the next gap-free `iid` of its project and records `issue.opened`
 * (with the initial milestone, iteration and weight, which start resource events).
 */
@Injectable()
export class CreateIssueUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly outbox: OutboxService,
    private readonly iids: InternalIdsRepository,
    private readonly issues: IssuesRepository,
    private readonly milestones: MilestonesRepository,
    private readonly iterations: IterationsRepository,
    private readonly users: UsersRepository,
  ) {}

  /** `manager`: run inside the caller's transaction (e.g. with the alert it is opened for). */
  execute(command: CreateIssueCommand, manager?: EntityManager): Promise<IssueEntity> {
    const { project } = command;
    const canAdmin = command.actorLevel >= ACCESS_LEVELS.REPORTER;
    const premium = tierAtLeast(this.config.tier, 'premium');
    const create = async (tx: EntityManager): Promise<IssueEntity> => {
      const milestone = canAdmin ? await resolveMilestone(this.milestones, tx, project, command.milestoneId ?? null) : null;
      const iteration = canAdmin && premium ? await resolveIteration(this.iterations, tx, project, command.iterationId ?? null) : null;
      const iid = await this.iids.next(tx, 'project', project.id, IID_USAGES.ISSUES);
      const issue = await this.issues.insert(tx, {
        iid,
        projectId: project.id,
        title: command.title,
        description: command.description ?? null,
        state: 'opened',
        authorId: command.actorId,
        assigneeIds: canAdmin ? await existingUserIds(this.users, tx, command.assigneeIds ?? []) : [],
        labels: canAdmin ? normalizeLabels(command.labels ?? []) : [],
        milestoneId: milestone?.id ?? null,
        iterationId: iteration?.id ?? null,
        weight: canAdmin && premium ? (command.weight ?? null) : null,
        issueType: command.issueType ?? 'issue',
        severity: command.severity ?? 'unknown',
        confidential: command.confidential ?? false,
      });
      await this.outbox.append(
        tx,
        issueEvent(ISSUES_EVENTS.ISSUE_OPENED, command.actorId, issue, project.namespace.kind === 'group' ? project.namespace.id : null, {
          milestone: milestoneSnapshot(milestone),
          iteration: iterationSnapshot(iteration),
        }),
      );
      return issue;
    };
    return manager ? create(manager) : this.dataSource.transaction(create);
  }
}
