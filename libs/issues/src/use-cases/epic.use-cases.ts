import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { ACCESS_LEVELS } from '@app/namespaces';
import { DataSource, EntityManager } from 'typeorm';
import type { CreateEpicDto, UpdateEpicDto } from '../dto/epic.dto';
import { EPIC_ID_START, EpicEntity } from '../entities/epic.entity';
import { IID_USAGES } from '../entities/internal-id.entity';
import { EPIC_EVENTS, epicEvent } from '../events/epics.events';
import { normalizeLabels } from '../relations/issuable-relations';
import { EpicsRepository } from '../repositories/epics.repository';
import { InternalIdsRepository } from '../repositories/internal-ids.repository';

const dateOf = (...values: Array<string | null | undefined>): string | null | undefined => values.find((v) => v !== undefined);

function checkDates(start: string | null, due: string | null): void {
  for (const [name, value] of [
    ['start_date', start],
    ['due_date', due],
  ] as const) {
    if (value !== null && Number.isNaN(Date.parse(`${value}T00:00:00Z`))) throw DomainError.invalid({ [name]: ['is invalid'] });
  }
  if (start && due && start > due) throw DomainError.invalid({ start_date: ['must be before due date'] });
}

export interface CreateEpicCommand {
  groupId: number;
  actorId: number;
  attributes: CreateEpicDto;
}

/** `POST /groups/:id/epics` (Reporter+, checked by the route): per-group iid, `epic.created`. */
@Injectable()
export class CreateEpicUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly iids: InternalIdsRepository,
    private readonly epics: EpicsRepository,
  ) {}

  async execute({ groupId, actorId, attributes }: CreateEpicCommand): Promise<EpicEntity> {
    if (attributes.title.trim() === '') throw DomainError.invalid({ title: ["can't be blank"] });
    const startDate = dateOf(attributes.start_date_fixed, attributes.start_date) ?? null;
    const dueDate = dateOf(attributes.due_date_fixed, attributes.due_date, attributes.end_date) ?? null;
    checkDates(startDate, dueDate);
    return this.dataSource.transaction(async (tx) => {
      const iid = await this.iids.next(tx, 'group', groupId, IID_USAGES.EPICS);
      if (iid >= EPIC_ID_START) throw DomainError.unprocessable('The group has reached the largest epic iid');
      const epic = Object.assign(new EpicEntity(), {
        iid,
        groupId,
        authorId: actorId,
        title: attributes.title,
        description: attributes.description ?? null,
        state: 'opened',
        startDate,
        dueDate,
        labels: normalizeLabels(attributes.labels ?? []),
        confidential: attributes.confidential ?? false,
        closedAt: null,
      });
      const saved = await this.epics.save(tx, epic);
      await this.outbox.append(tx, epicEvent(EPIC_EVENTS.CREATED, actorId, saved));
      return saved;
    });
  }
}

export interface UpdateEpicCommand {
  groupId: number;
  iid: number;
  actorId: number;
  actorLevel: number;
  attributes: UpdateEpicDto;
}

/** `PUT /groups/:id/epics/:epic_iid` (Reporter+): attributes, `state_event`; `epic.updated` with `changes`, `epic.closed`/`epic.reopened`. */
@Injectable()
export class UpdateEpicUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly epics: EpicsRepository,
  ) {}

  execute(command: UpdateEpicCommand, manager?: EntityManager): Promise<EpicEntity> {
    return manager ? this.update(manager, command) : this.dataSource.transaction((tx) => this.update(tx, command));
  }

  private async update(tx: EntityManager, { groupId, iid, actorId, actorLevel, attributes }: UpdateEpicCommand): Promise<EpicEntity> {
    const epic = await this.epics.lockByIid(tx, groupId, iid);
    if (!epic || (epic.confidential && actorLevel < ACCESS_LEVELS.REPORTER)) throw DomainError.notFound('Epic');
    if (actorLevel < ACCESS_LEVELS.REPORTER) throw DomainError.forbidden();
    const changes: Record<string, { previous: unknown; current: unknown }> = {};
    const set = <K extends keyof EpicEntity>(key: K, attribute: string, value: EpicEntity[K] | undefined): void => {
      if (value === undefined || JSON.stringify(epic[key]) === JSON.stringify(value)) return;
      changes[attribute] = { previous: epic[key], current: value };
      epic[key] = value;
    };
    if (attributes.title !== undefined && attributes.title.trim() === '') throw DomainError.invalid({ title: ["can't be blank"] });
    set('title', 'title', attributes.title);
    set('description', 'description', attributes.description);
    set('confidential', 'confidential', attributes.confidential);
    if (attributes.labels !== undefined) set('labels', 'labels', normalizeLabels(attributes.labels));
    set('startDate', 'start_date', dateOf(attributes.start_date_fixed, attributes.start_date));
    set('dueDate', 'due_date', dateOf(attributes.due_date_fixed, attributes.due_date, attributes.end_date));
    checkDates(epic.startDate, epic.dueDate);
    let stateType: typeof EPIC_EVENTS.CLOSED | typeof EPIC_EVENTS.REOPENED | null = null;
    if (attributes.state_event === 'close' && epic.state === 'opened') {
      Object.assign(epic, { state: 'closed', closedAt: new Date() });
      stateType = EPIC_EVENTS.CLOSED;
    } else if (attributes.state_event === 'reopen' && epic.state === 'closed') {
      Object.assign(epic, { state: 'opened', closedAt: null });
      stateType = EPIC_EVENTS.REOPENED;
    }
    if (Object.keys(changes).length === 0 && !stateType) return epic;
    const saved = await this.epics.save(tx, epic);
    const events = [];
    if (Object.keys(changes).length > 0) events.push(epicEvent(EPIC_EVENTS.UPDATED, actorId, saved, { changes }));
    if (stateType) events.push(epicEvent(stateType, actorId, saved, { state: saved.state }));
    await this.outbox.append(tx, events);
    return saved;
  }
}

/** `DELETE /groups/:id/epics/:epic_iid` (Owner, checked by the route). */
@Injectable()
export class DeleteEpicUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly epics: EpicsRepository,
  ) {}

  async execute({ groupId, iid, actorId }: { groupId: number; iid: number; actorId: number }): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const epic = await this.epics.findByIidIn(tx, groupId, iid);
      if (!epic) throw DomainError.notFound('Epic');
      await this.epics.delete(tx, epic.id);
      await this.outbox.append(tx, epicEvent(EPIC_EVENTS.DESTROYED, actorId, epic));
    });
  }
}
