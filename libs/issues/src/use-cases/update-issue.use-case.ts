import { Injectable } from '@nestjs/common';
import { DomainError, tierAtLeast } from '@app/api';
import { UsersRepository } from '@app/identity';
import { AppConfig } from '@app/config';
import { NewDomainEvent, OutboxService } from '@app/messaging';
import { ACCESS_LEVELS } from '@app/namespaces';
import type { ProjectWithNamespace } from '@app/namespaces';
import { DataSource, EntityManager } from 'typeorm';
import { IssueEntity, IssueType } from '../entities/issue.entity';
import { IssuesRepository } from '../repositories/issues.repository';
import { IterationsRepository } from '../repositories/iterations.repository';
import { MilestonesRepository } from '../repositories/milestones.repository';
import { applyStateEvent, changeMilestone, existingUserIds, normalizeLabels, resolveIteration } from '../relations/issuable-relations';
import { Change, ISSUES_EVENTS, issueEvent, iterationSnapshot } from '../events/issues.events';

export interface UpdateIssueCommand {
  actorId: number;
  actorLevel: number;
  project: ProjectWithNamespace;
  iid: number;
  title?: string;
  description?: string | null;
  confidential?: boolean;
  issueType?: IssueType;
  labels?: string[];
  assigneeIds?: number[];
  milestoneId?: number | null;
  iterationId?: number | null;
  weight?: number | null;
  stateEvent?: 'close' | 'reopen';
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Edits an issue (its author or a Reporter+; metadata only by Reporter+) and records
 * `issue.updated` with `changes` (`{previous, current}` per attribute; milestone and
 * iteration as snapshots), then `issue.closed` / `issue.reopened` for a state change.
 */
@Injectable()
export class UpdateIssueUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly outbox: OutboxService,
    private readonly issues: IssuesRepository,
    private readonly milestones: MilestonesRepository,
    private readonly iterations: IterationsRepository,
    private readonly users: UsersRepository,
  ) {}

  /** `manager`: run inside the caller's transaction (e.g. with the alert that closes it). */
  execute(command: UpdateIssueCommand, manager?: EntityManager): Promise<IssueEntity> {
    return manager ? this.update(manager, command) : this.dataSource.transaction((tx) => this.update(tx, command));
  }

  private async update(tx: EntityManager, command: UpdateIssueCommand): Promise<IssueEntity> {
    const { project } = command;
    const issue = await this.issues.lockByIid(tx, project.id, command.iid);
    if (!issue) throw DomainError.notFound('Issue');
    const canAdmin = command.actorLevel >= ACCESS_LEVELS.REPORTER;
    if (!canAdmin && issue.authorId !== command.actorId) throw DomainError.forbidden();
    if (issue.confidential && !canAdmin && issue.authorId !== command.actorId && !issue.assigneeIds.includes(command.actorId)) {
      throw DomainError.notFound('Issue');
    }
    const premium = tierAtLeast(this.config.tier, 'premium');
    const changes: Record<string, Change<unknown>> = {};
    const set = <K extends keyof IssueEntity>(key: K, attribute: string, value: IssueEntity[K] | undefined): void => {
      if (value === undefined || same(issue[key], value)) return;
      changes[attribute] = { previous: issue[key], current: value };
      issue[key] = value;
    };

    set('title', 'title', command.title);
    set('description', 'description', command.description);
    set('confidential', 'confidential', command.confidential);
    set('issueType', 'issue_type', command.issueType);
    if (canAdmin) {
      if (command.labels !== undefined) set('labels', 'labels', normalizeLabels(command.labels));
      if (command.assigneeIds !== undefined) set('assigneeIds', 'assignee_ids', await existingUserIds(this.users, tx, command.assigneeIds));
      if (command.milestoneId !== undefined) await changeMilestone(this.milestones, tx, issue, project, command.milestoneId, changes);
      if (premium && command.iterationId !== undefined) await this.changeIteration(tx, issue, project, command.iterationId, changes);
      if (premium) set('weight', 'weight', command.weight);
    }

    const transition = applyStateEvent(issue, command.stateEvent, command.actorId);
    const stateType = transition && (transition === 'closed' ? ISSUES_EVENTS.ISSUE_CLOSED : ISSUES_EVENTS.ISSUE_REOPENED);
    if (Object.keys(changes).length === 0 && !stateType) return issue;

    const saved = await this.issues.save(tx, issue);
    const groupId = project.namespace.kind === 'group' ? project.namespace.id : null;
    const events: NewDomainEvent[] = [];
    if (Object.keys(changes).length > 0) events.push(issueEvent(ISSUES_EVENTS.ISSUE_UPDATED, command.actorId, saved, groupId, { changes }));
    if (stateType) events.push(issueEvent(stateType, command.actorId, saved, groupId, { state: saved.state }));
    await this.outbox.append(tx, events);
    return saved;
  }

  private async changeIteration(
    tx: EntityManager,
    issue: IssueEntity,
    project: ProjectWithNamespace,
    id: number | null,
    changes: Record<string, Change<unknown>>,
  ): Promise<void> {
    const next = await resolveIteration(this.iterations, tx, project, id);
    if ((next?.id ?? null) === issue.iterationId) return;
    const previous = issue.iterationId ? await this.iterations.findById(tx, issue.iterationId) : null;
    changes.iteration = { previous: iterationSnapshot(previous), current: iterationSnapshot(next) };
    issue.iterationId = next?.id ?? null;
  }
}
