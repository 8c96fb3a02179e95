import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { NewDomainEvent, OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { MilestoneEntity } from '../entities/milestone.entity';
import { MilestonesRepository } from '../repositories/milestones.repository';
import { ISSUES_EVENTS, type IssuesEventType, milestoneEvent } from '../events/issues.events';
import { MILESTONE_TITLE_TAKEN } from './create-milestone.use-case';

export interface UpdateMilestoneCommand {
  actorId: number;
  projectId: number;
  milestoneId: number;
  title?: string;
  description?: string | null;
  dueDate?: string | null;
  startDate?: string | null;
  stateEvent?: 'close' | 'activate';
}

/** Edits a project milestone; `close`/`activate` record `milestone.closed`/`milestone.reopened`. */
@Injectable()
export class UpdateMilestoneUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly milestones: MilestonesRepository,
  ) {}

  execute(command: UpdateMilestoneCommand): Promise<MilestoneEntity> {
    return this.dataSource.transaction(async (tx) => {
      const milestone = await this.milestones.lockInProject(tx, command.projectId, command.milestoneId);
      if (!milestone) throw DomainError.notFound('Milestone');
      const changes: Record<string, { previous: unknown; current: unknown }> = {};
      const set = <K extends 'title' | 'description' | 'dueDate' | 'startDate'>(key: K, attribute: string, value: MilestoneEntity[K] | undefined): void => {
        if (value === undefined || milestone[key] === value) return;
        changes[attribute] = { previous: milestone[key], current: value };
        milestone[key] = value;
      };
      set('title', 'title', command.title);
      set('description', 'description', command.description);
      set('dueDate', 'due_date', command.dueDate);
      set('startDate', 'start_date', command.startDate);
      if (milestone.startDate && milestone.dueDate && milestone.startDate > milestone.dueDate) {
        throw DomainError.invalid({ due_date: ['must be greater than start date'] });
      }
      if (changes.title && (await this.milestones.titleTaken(tx, { projectId: command.projectId }, milestone.title))) {
        throw DomainError.invalid({ title: [MILESTONE_TITLE_TAKEN] });
      }
      let stateType: IssuesEventType | null = null;
      if (command.stateEvent === 'close' && milestone.state === 'active') {
        milestone.state = 'closed';
        stateType = ISSUES_EVENTS.MILESTONE_CLOSED;
      } else if (command.stateEvent === 'activate' && milestone.state === 'closed') {
        milestone.state = 'active';
        stateType = ISSUES_EVENTS.MILESTONE_REOPENED;
      }
      if (Object.keys(changes).length === 0 && !stateType) return milestone;
      const saved = await this.milestones.save(tx, milestone);
      const events: NewDomainEvent[] = [];
      if (Object.keys(changes).length > 0) events.push(milestoneEvent(ISSUES_EVENTS.MILESTONE_UPDATED, command.actorId, saved, { changes }));
      if (stateType) events.push(milestoneEvent(stateType, command.actorId, saved));
      await this.outbox.append(tx, events);
      return saved;
    });
  }
}
