import { Injectable } from '@nestjs/common';
import { type CataloguedEvent, CONSUMER_GROUPS, DomainEventConsumerOptions, DomainEventSubscriber } from '@app/messaging';
import { NoteableRemoval, noteableRemovalOf } from './noteable-removal';
import { assigneesNoteBody, planSystemNotes } from './system-note-plan';
import { SystemNoteRow, SystemNotesRepository } from './system-notes.repository';

/** The events that write or remove notes (the writer lists them; other types are skipped unread). */
export type SystemNotesEvent = CataloguedEvent<'issue.updated' | 'merge_request.updated' | 'push' | 'issue.destroyed' | 'snippet.destroyed' | 'epic.destroyed'>;

/**
 * Writes the system notes of issue and merge request changes from the domain event stream
 * (consumer group `system-notes.v1`, run by the projector app). Idempotent: a note remembers
 * its event id and action (unique), so a redelivered event writes nothing twice. System notes
 * have no domain events of their own (GitLab makes no contribution event for them).
 *
 * The same consumer removes the notes and award emoji of a removed issue, snippet or epic
 * (GitLab destroys them with their noteable; they were unreachable from its 404 on).
 * Idempotent too (deleting what is gone changes nothing). No note events are written for them,
 * as GitLab sends none: the events projector drops the comments' contribution events from the
 * noteable's own `*.destroyed` event.
 */
@Injectable()
export class SystemNotesWriter extends DomainEventSubscriber {
  constructor(private readonly systemNotes: SystemNotesRepository) {
    super();
  }

  protected consumerOptions(): DomainEventConsumerOptions {
    const handle = (event: SystemNotesEvent) => this.handle(event);
    return {
      groupId: CONSUMER_GROUPS.SYSTEM_NOTES,
      handlers: {
        // Changes that GitLab notes on the issue or merge request, and commits pushed to a merge request's source branch.
        'issue.updated': handle,
        'merge_request.updated': handle,
        push: handle,
        // Removed noteables: their notes and award emoji go with them.
        'issue.destroyed': handle,
        'snippet.destroyed': handle,
        'epic.destroyed': handle,
      },
    };
  }

  async handle(event: SystemNotesEvent): Promise<void> {
    const removal = noteableRemovalOf(event);
    if (removal) return this.removeNotes(removal);
    const planned = planSystemNotes(event);
    if (planned.length === 0 || event.actor === null) return;
    const rows: SystemNoteRow[] = [];
    for (const note of planned) {
      const base = { project_id: event.project_id, group_id: null, author_id: event.actor, noteable_type: note.noteableType };
      if (note.action === 'commit') {
        const mergeRequests = await this.systemNotes.openMergeRequestIdsOfBranch(event.project_id, note.sourceBranch, new Date(event.occurred_at));
        for (const id of mergeRequests) rows.push({ ...base, noteable_id: id, body: note.body, system_note_action: `commit:${id}` });
        continue;
      }
      if (note.mention) {
        // The mentioned issue or merge request of the pushed project, if it exists; once per commit (GitLab's `cross_reference_exists?`).
        const found = await this.systemNotes.mentionTarget(note.noteableType, event.project_id, note.mention.iid, note.mention.authorEmail ?? '', note.body);
        if (found)
          rows.push({
            ...base,
            author_id: found.author_id ?? event.actor,
            noteable_id: found.id,
            body: note.body,
            system_note_action: `xref:${note.noteableType === 'Issue' ? 'I' : 'M'}${found.id}:${note.mention.commit.slice(0, 12)}`,
          });
        continue;
      }
      let body = note.body;
      if (note.assignees) {
        const names = await this.systemNotes.usernames([...note.assignees.added, ...note.assignees.removed]);
        const named = (list: number[]) => list.map((id) => names.get(id)).filter((n): n is string => !!n);
        body = assigneesNoteBody(named(note.assignees.added), named(note.assignees.removed));
        if (body === '') continue;
      }
      rows.push({ ...base, noteable_id: note.noteableId, body, system_note_action: note.action });
    }
    if (rows.length === 0) return;
    await this.systemNotes.insertForEvent(rows, event.id, event.occurred_at);
  }

  /** Deletes the notes of the removed record, the awards on them and the awards on the record. */
  private removeNotes(removal: NoteableRemoval): Promise<void> {
    return this.systemNotes.removeNotesOf(removal.noteableType, removal.noteableId);
  }
}
