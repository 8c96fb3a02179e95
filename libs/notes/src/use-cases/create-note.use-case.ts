import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import type { AwardEmojiEntity } from '../entities/award-emoji.entity';
import { NoteEntity } from '../entities/note.entity';
import { checkNoteBody, mayWriteInternal, maySetCreatedAt, parseCreatedAt } from '../core/note-rules';
import { NotePresenter } from '../presenters/note.presenter';
import type { Noteable, NoteActor } from '../core/noteable';
import { NOTE_EVENTS, noteEvent } from '../events/notes.events';
import { NotesRepository } from '../repositories/notes.repository';
import { awardEmojiOf, extractQuickActions } from '../quick-actions/quick-actions';
import { QuickActionsOutcome, QuickActionsRun, QuickActionsService } from '../quick-actions/quick-actions.service';

export interface CreateNoteCommand {
  noteable: Noteable;
  actor: NoteActor;
  body: string;
  /** `confidential` or `internal` (issues and epics only; ignored elsewhere). */
  internal?: boolean;
  /** ISO 8601; honoured for administrators and owners only. */
  createdAt?: string;
  /** Issues and merge requests: the quick actions run on this target. */
  quickActions?: Omit<QuickActionsRun, 'actor'>;
  /**
   * A note of a thread (`type: DiscussionNote`): a new thread (`discussionId` null), or a reply
   * to one (its id; an individual note replied to becomes a thread, as GitLab converts it). A
   * reply is internal when its thread is (`internal`).
   */
  thread?: { discussionId: string | null; internal: boolean };
}

export type CreateNoteResult =
  | { kind: 'note'; note: NoteEntity; changes: Record<string, unknown> }
  | { kind: 'award'; award: AwardEmojiEntity }
  | { kind: 'commands'; changes: Record<string, unknown>; summary: string[] };

const INTERNAL_TYPES: readonly string[] = ['Issue', 'Epic'];

/**
 * `POST …/notes`. In GitLab's order: the body limit (400, nothing stored); a body of one award
 * emoji awards it; quick actions are taken out and applied; a body of quick actions only
 * stores no note (GitLab's 202 with `commands_changes` and `summary`, or 400 when none could be
 * applied); otherwise the note and `note.created` are written in one transaction.
 */
@Injectable()
export class CreateNoteUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly notes: NotesRepository,
    private readonly presenter: NotePresenter,
    private readonly quickActions: QuickActionsService,
  ) {}

  async execute(command: CreateNoteCommand): Promise<CreateNoteResult> {
    const { noteable, actor } = command;
    checkNoteBody(command.body);
    if (command.body.trim() === '') throw DomainError.invalid({ note: ["can't be blank"] });
    const internal = (Boolean(command.internal) && INTERNAL_TYPES.includes(noteable.type)) || Boolean(command.thread?.internal);
    if (internal && !command.thread?.internal && !mayWriteInternal(actor)) throw DomainError.forbidden();
    const createdAt = command.createdAt !== undefined && maySetCreatedAt(actor) ? parseCreatedAt(command.createdAt) : undefined;

    const emoji = awardEmojiOf(command.body);
    if (emoji) {
      const { award } = await this.dataSource.transaction((tx) => this.notes.award(tx, noteable, emoji, actor.id));
      return { kind: 'award', award };
    }

    let body = command.body;
    let outcome: QuickActionsOutcome = { changes: {}, messages: [], failures: [] };
    if (command.quickActions) {
      const run: QuickActionsRun = { ...command.quickActions, actor };
      const extracted = extractQuickActions(body, noteable.type, this.quickActions.availability(run.target, actor));
      if (extracted.actions.length > 0) {
        body = extracted.body;
        outcome = await this.quickActions.run(run, extracted.actions);
        if (body === '') {
          if (outcome.messages.length === 0) throw DomainError.badRequest(outcome.failures.join(', '));
          return { kind: 'commands', changes: outcome.changes, summary: [...outcome.messages, ...outcome.failures] };
        }
      }
    }

    const note = new NoteEntity();
    note.noteableType = noteable.type;
    note.noteableId = noteable.id;
    note.projectId = noteable.projectId;
    note.groupId = noteable.projectId === null ? noteable.groupId : null;
    note.authorId = actor.id;
    note.body = body;
    note.system = false;
    note.internal = internal;
    note.systemNoteAction = null;
    note.sourceEventId = null;
    note.type = command.thread ? 'DiscussionNote' : null;
    if (command.thread?.discussionId) note.discussionId = command.thread.discussionId;
    if (createdAt) {
      note.createdAt = createdAt;
      note.updatedAt = createdAt;
    }
    const users = await this.presenter.users([actor.id]);
    const saved = await this.dataSource.transaction(async (tx) => {
      // Replying to an individual note makes it the first note of a thread.
      if (command.thread?.discussionId) await this.notes.makeThread(tx, command.thread.discussionId);
      const row = await this.notes.save(tx, note);
      await this.outbox.append(tx, noteEvent(NOTE_EVENTS.CREATED, actor.id, row, noteable, this.presenter.author(users.get(actor.id), null)));
      return row;
    });
    return { kind: 'note', note: saved, changes: outcome.changes };
  }
}
