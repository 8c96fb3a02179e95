import { Inject, Injectable, Optional } from '@nestjs/common';
import { DomainError } from '@app/api';
import { UsersRepository } from '@app/identity';
import { OutboxService } from '@app/messaging';
import type { ProjectWithNamespace } from '@app/namespaces';
import { DataSource } from 'typeorm';
import { IID_USAGES } from '../entities/internal-id.entity';
import { MergeRequestEntity } from '../entities/merge-request.entity';
import { InternalIdsRepository } from '../repositories/internal-ids.repository';
import { MergeRequestsRepository } from '../repositories/merge-requests.repository';
import { MilestonesRepository } from '../repositories/milestones.repository';
import { existingUserIds, normalizeLabels, resolveMilestone } from '../relations/issuable-relations';
import { ISSUES_EVENTS, mergeRequestEvent, milestoneSnapshot } from '../events/issues.events';
import { MERGE_REQUEST_APPROVALS, MergeRequestApprovals } from '../ports/merge-request-approvals';
import { MERGE_REQUEST_GIT, MergeRequestGit } from '../ports/merge-request-git';

export interface CreateMergeRequestCommand {
  actorId: number;
  project: ProjectWithNamespace;
  title: string;
  sourceBranch: string;
  targetBranch: string;
  description?: string | null;
  labels?: string[];
  assigneeIds?: number[];
  milestoneId?: number | null;
}

/** GitLab's message when an open merge request already exists for the branches. */
export const mergeRequestExists = (source: string, target: string): string =>
  `Another open merge request already exists for this source branch: ${source} into ${target}`;

/**
 * Opens a merge request with the next `iid` and records `merge_request.opened`. Both branches
 * must exist in the project's repository (an empty repository has none), else 400
 * `{"message":{"source_branch":["does not exist"]}}` as GitLab answers.
 */
@Injectable()
export class CreateMergeRequestUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly iids: InternalIdsRepository,
    private readonly mergeRequests: MergeRequestsRepository,
    private readonly milestones: MilestonesRepository,
    private readonly users: UsersRepository,
    @Optional() @Inject(MERGE_REQUEST_GIT) private readonly git?: MergeRequestGit,
    @Optional() @Inject(MERGE_REQUEST_APPROVALS) private readonly approvals?: MergeRequestApprovals,
  ) {}

  async execute(command: CreateMergeRequestCommand): Promise<MergeRequestEntity> {
    const { project } = command;
    if (command.sourceBranch === command.targetBranch) throw DomainError.invalid({ base: ["You can't use same project/branch for source and target"] });
    if (this.git) {
      const missing = await this.git.missingBranches(project, [command.sourceBranch, command.targetBranch]);
      const errors: Record<string, string[]> = {};
      if (missing.includes(command.sourceBranch)) errors.source_branch = ['does not exist'];
      if (missing.includes(command.targetBranch)) errors.target_branch = ['does not exist'];
      if (Object.keys(errors).length) throw DomainError.invalid(errors);
    }
    return this.dataSource.transaction(async (tx) => {
      const milestone = await resolveMilestone(this.milestones, tx, project, command.milestoneId ?? null);
      const iid = await this.iids.next(tx, 'project', project.id, IID_USAGES.MERGE_REQUESTS);
      const duplicate = await this.mergeRequests.openExists(tx, project.id, command.sourceBranch, command.targetBranch);
      if (duplicate) throw DomainError.conflict(mergeRequestExists(command.sourceBranch, command.targetBranch));
      const mr = await this.mergeRequests.insert(tx, {
        iid,
        projectId: project.id,
        title: command.title,
        description: command.description ?? null,
        state: 'opened',
        sourceBranch: command.sourceBranch,
        targetBranch: command.targetBranch,
        authorId: command.actorId,
        assigneeIds: await existingUserIds(this.users, tx, command.assigneeIds ?? []),
        labels: normalizeLabels(command.labels ?? []),
        milestoneId: milestone?.id ?? null,
      });
      // The approval rules of the project that apply to the target branch are copied in the same transaction.
      await this.approvals?.targetChanged(tx, mr);
      const groupId = project.namespace.kind === 'group' ? project.namespace.id : null;
      await this.outbox.append(
        tx,
        mergeRequestEvent(ISSUES_EVENTS.MERGE_REQUEST_OPENED, command.actorId, mr, groupId, { milestone: milestoneSnapshot(milestone) }),
      );
      return mr;
    });
  }
}
