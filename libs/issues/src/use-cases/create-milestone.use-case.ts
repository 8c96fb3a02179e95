import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { IID_USAGES } from '../entities/internal-id.entity';
import { MilestoneEntity } from '../entities/milestone.entity';
import { InternalIdsRepository } from '../repositories/internal-ids.repository';
import { MilestonesRepository } from '../repositories/milestones.repository';
import { ISSUES_EVENTS, milestoneEvent } from '../events/issues.events';

export interface CreateMilestoneCommand {
  actorId: number;
  /** Exactly one: a project milestone or a group milestone. */
  owner: { projectId: number } | { groupId: number };
  title: string;
  description?: string | null;
  dueDate?: string | null;
  startDate?: string | null;
}

export const MILESTONE_TITLE_TAKEN = 'already being used for another group or project milestone.';

/** Creates an active milestone with the next `iid` of its project or group and records `milestone.created`. */
@Injectable()
export class CreateMilestoneUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly iids: InternalIdsRepository,
    private readonly milestones: MilestonesRepository,
  ) {}

  execute(command: CreateMilestoneCommand): Promise<MilestoneEntity> {
    if (command.startDate && command.dueDate && command.startDate > command.dueDate) {
      throw DomainError.invalid({ due_date: ['must be greater than start date'] });
    }
    const projectId = 'projectId' in command.owner ? command.owner.projectId : null;
    const groupId = 'groupId' in command.owner ? command.owner.groupId : null;
    return this.dataSource.transaction(async (tx) => {
      // Locks the scope's iid counter until commit: creations in one scope are serialized, so the title check holds.
      const iid = await this.iids.next(tx, projectId !== null ? 'project' : 'group', (projectId ?? groupId)!, IID_USAGES.MILESTONES);
      const taken = await this.milestones.titleTaken(tx, projectId !== null ? { projectId } : { groupId: groupId! }, command.title);
      if (taken) throw DomainError.invalid({ title: [MILESTONE_TITLE_TAKEN] });
      const milestone = await this.milestones.insert(tx, {
        iid,
        projectId,
        groupId,
        title: command.title,
        description: command.description ?? null,
        state: 'active',
        dueDate: command.dueDate ?? null,
        startDate: command.startDate ?? null,
      });
      await this.outbox.append(tx, milestoneEvent(ISSUES_EVENTS.MILESTONE_CREATED, command.actorId, milestone));
      return milestone;
    });
  }
}
