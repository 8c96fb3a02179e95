import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { IssueEntity } from '../entities/issue.entity';
import { MergeRequestEntity } from '../entities/merge-request.entity';
import { MilestoneEntity } from '../entities/milestone.entity';
import { ISSUES_EVENTS, milestoneEvent } from '../events/issues.events';

/** Deletes a project milestone, unsets it on its issues and merge requests, and records `milestone.destroyed`. */
@Injectable()
export class DeleteMilestoneUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
  ) {}

  execute(command: { actorId: number; projectId: number; milestoneId: number }): Promise<void> {
    return this.dataSource.transaction(async (tx) => {
      const milestone = await tx.findOne(MilestoneEntity, {
        where: { id: command.milestoneId, projectId: command.projectId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!milestone) throw DomainError.notFound('Milestone');
      await tx.update(IssueEntity, { milestoneId: milestone.id }, { milestoneId: null });
      await tx.update(MergeRequestEntity, { milestoneId: milestone.id }, { milestoneId: null });
      await tx.delete(MilestoneEntity, { id: milestone.id });
      await this.outbox.append(tx, milestoneEvent(ISSUES_EVENTS.MILESTONE_DESTROYED, command.actorId, milestone));
    });
  }
}
