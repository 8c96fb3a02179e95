import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { IID_USAGES } from '../entities/internal-id.entity';
import { IterationEntity } from '../entities/iteration.entity';
import { InternalIdsRepository } from '../repositories/internal-ids.repository';
import { IterationsRepository } from '../repositories/iterations.repository';
import { ISSUES_EVENTS, iterationSnapshot } from '../events/issues.events';

export interface CreateIterationCommand {
  actorId: number;
  groupId: number;
  title?: string | null;
  description?: string | null;
  startDate: string;
  dueDate: string;
}

/** Creates a group iteration (PREMIUM); iterations of one group may not overlap. Records `iteration.created`. */
@Injectable()
export class CreateIterationUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly iids: InternalIdsRepository,
    private readonly iterations: IterationsRepository,
  ) {}

  execute(command: CreateIterationCommand): Promise<IterationEntity> {
    if (command.startDate > command.dueDate) throw DomainError.invalid({ due_date: ['must be greater than start date'] });
    return this.dataSource.transaction(async (tx) => {
      const iid = await this.iids.next(tx, 'group', command.groupId, IID_USAGES.ITERATIONS);
      const overlapping = await this.iterations.overlaps(tx, command.groupId, command.startDate, command.dueDate);
      if (overlapping) throw DomainError.invalid({ base: ['Dates cannot overlap with other existing Iterations within this iterations cadence'] });
      const iteration = await this.iterations.insert(tx, {
        iid,
        groupId: command.groupId,
        title: command.title ?? null,
        description: command.description ?? null,
        startDate: command.startDate,
        dueDate: command.dueDate,
      });
      await this.outbox.append(tx, {
        type: ISSUES_EVENTS.ITERATION_CREATED,
        actor: command.actorId,
        groupId: command.groupId,
        target: { type: 'iteration', id: iteration.id, iid: iteration.iid, title: iteration.title },
        data: { iteration: iterationSnapshot(iteration) },
      });
      return iteration;
    });
  }
}
