import { Inject, Injectable, Optional } from '@nestjs/common';
import { DomainError } from '@app/api';
import { UsersRepository } from '@app/identity';
import { NewDomainEvent, OutboxService } from '@app/messaging';
import { ACCESS_LEVELS } from '@app/namespaces';
import type { ProjectWithNamespace } from '@app/namespaces';
import { DataSource } from 'typeorm';
import { MergeRequestEntity } from '../entities/merge-request.entity';
import { MergeRequestsRepository } from '../repositories/merge-requests.repository';
import { MilestonesRepository } from '../repositories/milestones.repository';
import { applyStateEvent, changeMilestone, existingUserIds, normalizeLabels } from '../relations/issuable-relations';
import { Change, ISSUES_EVENTS, mergeRequestEvent } from '../events/issues.events';
import { MERGE_REQUEST_APPROVALS, MergeRequestApprovals } from '../ports/merge-request-approvals';

export interface UpdateMergeRequestCommand {
  actorId: number;
  actorLevel: number;
  project: ProjectWithNamespace;
  iid: number;
  title?: string;
  description?: string | null;
  targetBranch?: string;
  labels?: string[];
  assigneeIds?: number[];
  milestoneId?: number | null;
  stateEvent?: 'close' | 'reopen';
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Edits a merge request (its author or a Developer+) and records `merge_request.updated` with
 * `changes`, then `merge_request.closed` / `.reopened`. A merged merge request cannot change state.
 */
@Injectable()
export class UpdateMergeRequestUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly mergeRequests: MergeRequestsRepository,
    private readonly milestones: MilestonesRepository,
    private readonly users: UsersRepository,
    @Optional() @Inject(MERGE_REQUEST_APPROVALS) private readonly approvals?: MergeRequestApprovals,
  ) {}

  execute(command: UpdateMergeRequestCommand): Promise<MergeRequestEntity> {
    const { project } = command;
    return this.dataSource.transaction(async (tx) => {
      const mr = await this.mergeRequests.lockByIid(tx, project.id, command.iid);
      if (!mr) throw DomainError.notFound('Merge Request');
      if (command.actorLevel < ACCESS_LEVELS.DEVELOPER && mr.authorId !== command.actorId) throw DomainError.forbidden();
      const changes: Record<string, Change<unknown>> = {};
      const set = <K extends keyof MergeRequestEntity>(key: K, attribute: string, value: MergeRequestEntity[K] | undefined): void => {
        if (value === undefined || same(mr[key], value)) return;
        changes[attribute] = { previous: mr[key], current: value };
        mr[key] = value;
      };
      set('title', 'title', command.title);
      set('description', 'description', command.description);
      set('targetBranch', 'target_branch', command.targetBranch);
      if (command.labels !== undefined) set('labels', 'labels', normalizeLabels(command.labels));
      if (command.assigneeIds !== undefined) set('assigneeIds', 'assignee_ids', await existingUserIds(this.users, tx, command.assigneeIds));
      if (command.milestoneId !== undefined) await changeMilestone(this.milestones, tx, mr, project, command.milestoneId, changes);
      if (mr.targetBranch === mr.sourceBranch) throw DomainError.invalid({ base: ["You can't use same project/branch for source and target"] });
      const transition = applyStateEvent(mr, command.stateEvent, command.actorId);
      const stateType = transition && (transition === 'closed' ? ISSUES_EVENTS.MERGE_REQUEST_CLOSED : ISSUES_EVENTS.MERGE_REQUEST_REOPENED);
      if (Object.keys(changes).length === 0 && !stateType) return mr;
      const saved = await this.mergeRequests.save(tx, mr);
      if (changes.target_branch) await this.approvals?.targetChanged(tx, saved);
      const groupId = project.namespace.kind === 'group' ? project.namespace.id : null;
      const events: NewDomainEvent[] = [];
      if (Object.keys(changes).length > 0) events.push(mergeRequestEvent(ISSUES_EVENTS.MERGE_REQUEST_UPDATED, command.actorId, saved, groupId, { changes }));
      if (stateType) events.push(mergeRequestEvent(stateType, command.actorId, saved, groupId, { state: saved.state }));
      await this.outbox.append(tx, events);
      return saved;
    });
  }
}
