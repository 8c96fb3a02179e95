import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import type { NoteEntity } from '../entities/note.entity';
import { checkNoteBody, mayEditNote } from '../core/note-rules';
import { NotePresenter } from '../presenters/note.presenter';
import type { Noteable, NoteActor } from '../core/noteable';
import { NOTE_EVENTS, noteEvent } from '../events/notes.events';
import { NotesRepository } from '../repositories/notes.repository';

export interface UpdateNoteCommand {
  noteable: Noteable;
  /** A note of the noteable the actor may read. */
  note: NoteEntity;
  actor: NoteActor;
  /** Optional for issue notes (nothing changes without it), required elsewhere (checked by the DTO). */
  body?: string;
}

/** `PUT …/notes/:note_id`: the author (or an administrator) edits the body; system notes are never edited (403). */
@Injectable()
export class UpdateNoteUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly notes: NotesRepository,
    private readonly presenter: NotePresenter,
  ) {}

  async execute({ noteable, note, actor, body }: UpdateNoteCommand): Promise<NoteEntity> {
    if (!mayEditNote(note, actor)) throw DomainError.forbidden();
    if (body === undefined || body === note.body) return note;
    checkNoteBody(body);
    if (body.trim() === '') throw DomainError.invalid({ note: ["can't be blank"] });
    note.body = body;
    const users = await this.presenter.users([note.authorId]);
    return this.dataSource.transaction(async (tx) => {
      const saved = await this.notes.save(tx, note);
      await this.outbox.append(tx, noteEvent(NOTE_EVENTS.UPDATED, actor.id, saved, noteable, this.presenter.author(users.get(note.authorId), null)));
      return saved;
    });
  }
}
