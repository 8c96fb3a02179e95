import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import type { NoteEntity } from '../entities/note.entity';
import { mayDeleteNote } from '../core/note-rules';
import { NotePresenter } from '../presenters/note.presenter';
import type { Noteable, NoteActor } from '../core/noteable';
import { NOTE_EVENTS, noteEvent } from '../events/notes.events';
import { NotesRepository } from '../repositories/notes.repository';

export interface DeleteNoteCommand {
  noteable: Noteable;
  note: NoteEntity;
  actor: NoteActor;
}

/** `DELETE …/notes/:note_id`: by the author, Maintainers and above, administrators; never a system note (403). */
@Injectable()
export class DeleteNoteUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly notes: NotesRepository,
    private readonly presenter: NotePresenter,
  ) {}

  async execute({ noteable, note, actor }: DeleteNoteCommand): Promise<void> {
    if (!mayDeleteNote(note, actor)) throw DomainError.forbidden();
    const users = await this.presenter.users([note.authorId]);
    await this.dataSource.transaction(async (tx) => {
      if (await this.notes.delete(tx, note.id)) {
        await this.outbox.append(tx, noteEvent(NOTE_EVENTS.DESTROYED, actor.id, note, noteable, this.presenter.author(users.get(note.authorId), null)));
      }
    });
  }
}
