import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { IssuesRepository } from '../repositories/issues.repository';
import { MergeRequestsRepository } from '../repositories/merge-requests.repository';
import { MilestonesRepository } from '../repositories/milestones.repository';
import { ISSUES_EVENTS, milestoneEvent } from '../events/issues.events';

/** Deletes a project milestone, unsets it on its issues and merge requests, and records `milestone.destroyed`. */
@Injectable()
export class DeleteMilestoneUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly milestones: MilestonesRepository,
    private readonly issues: IssuesRepository,
    private readonly mergeRequests: MergeRequestsRepository,
  ) {}

  execute(command: { actorId: number; projectId: number; milestoneId: number }): Promise<void> {
    return this.dataSource.transaction(async (tx) => {
      const milestone = await this.milestones.lockInProject(tx, command.projectId, command.milestoneId);
      if (!milestone) throw DomainError.notFound('Milestone');
      await this.issues.unsetMilestone(tx, milestone.id);
      await this.mergeRequests.unsetMilestone(tx, milestone.id);
      await this.milestones.delete(tx, milestone.id);
      await this.outbox.append(tx, milestoneEvent(ISSUES_EVENTS.MILESTONE_DESTROYED, command.actorId, milestone));
    });
  }
}
