import { Injectable } from '@nestjs/common';
import { type CataloguedEvent, CONSUMER_GROUPS, DomainEventConsumerOptions, DomainEventSubscriber } from '@app/messaging';
import { DataSource } from 'typeorm';
import { NoteableRemoval, noteableRemovalOf } from './noteable-removal';
import { assigneesNoteBody, planSystemNotes } from './system-note-plan';

/** The events that write or remove notes (the writer lists them; other types are skipped unread). */
export type SystemNotesEvent = CataloguedEvent<'issue.updated' | 'merge_request.updated' | 'push' | 'issue.destroyed' | 'snippet.destroyed' | 'epic.destroyed'>;

interface SystemNoteRow {
  noteable_type: string;
  noteable_id: number;
  project_id: number | null;
  group_id: number | null;
  author_id: number;
  body: string;
  system_note_action: string;
}

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
  constructor(private readonly dataSource: DataSource) {
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
        const mergeRequests = (await this.dataSource.query(`SELECT id FROM merge_requests WHERE project_id = $1 AND source_branch = $2 AND state = 'opened' ORDER BY id`, [
          event.project_id,
          note.sourceBranch,
        ])) as Array<{ id: number }>;
        for (const mr of mergeRequests) rows.push({ ...base, noteable_id: mr.id, body: note.body, system_note_action: `commit:${mr.id}` });
        continue;
      }
      if (note.mention) {
        // The mentioned issue or merge request of the pushed project, if it exists; once per commit (GitLab's `cross_reference_exists?`).
        const table = note.noteableType === 'Issue' ? 'issues' : 'merge_requests';
        const [found] = (await this.dataSource.query(
          `SELECT t.id, (SELECT u.id FROM users u WHERE lower(u.email) = lower($3) LIMIT 1) AS author_id FROM ${table} t
           WHERE t.project_id = $1 AND t.iid = $2
             AND NOT EXISTS (SELECT 1 FROM notes n WHERE n.noteable_type = $4 AND n.noteable_id = t.id AND n.system AND n.body = $5)`,
          [event.project_id, note.mention.iid, note.mention.authorEmail ?? '', note.noteableType, note.body],
        )) as Array<{ id: number; author_id: number | null }>;
        if (found) rows.push({ ...base, author_id: found.author_id ?? event.actor, noteable_id: found.id, body: note.body, system_note_action: `xref:${note.noteableType === 'Issue' ? 'I' : 'M'}${found.id}:${note.mention.commit.slice(0, 12)}` });
        continue;
      }
      let body = note.body;
      if (note.assignees) {
        const names = await this.usernames([...note.assignees.added, ...note.assignees.removed]);
        const named = (list: number[]) => list.map((id) => names.get(id)).filter((n): n is string => !!n);
        body = assigneesNoteBody(named(note.assignees.added), named(note.assignees.removed));
        if (body === '') continue;
      }
      rows.push({ ...base, noteable_id: note.noteableId, body, system_note_action: note.action });
    }
    if (rows.length === 0) return;
    await this.dataSource.query(
      `INSERT INTO notes (noteable_type, noteable_id, project_id, group_id, author_id, body, system, system_note_action, source_event_id, created_at, updated_at)
       SELECT r.noteable_type, r.noteable_id, r.project_id, r.group_id, r.author_id, r.body, true, r.system_note_action, $2, $3, $3
       FROM jsonb_to_recordset($1::jsonb) AS r(noteable_type varchar, noteable_id int, project_id int, group_id int, author_id int, body text, system_note_action varchar)
       ON CONFLICT (source_event_id, system_note_action) WHERE source_event_id IS NOT NULL DO NOTHING`,
      [JSON.stringify(rows), event.id, event.occurred_at],
    );
  }

  /** Deletes the notes of the removed record, the awards on them and the awards on the record, in one transaction. */
  private async removeNotes(removal: NoteableRemoval): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      await tx.query(
        `WITH gone AS (DELETE FROM notes WHERE noteable_type = $1 AND noteable_id = $2 RETURNING id)
         DELETE FROM award_emoji a WHERE (a.awardable_type = $1 AND a.awardable_id = $2) OR (a.awardable_type = 'Note' AND a.awardable_id IN (SELECT id FROM gone))`,
        [removal.noteableType, removal.noteableId],
      );
    });
  }

  private async usernames(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = (await this.dataSource.query(`SELECT id, username FROM users WHERE id = ANY($1)`, [ids])) as Array<{ id: number; username: string }>;
    return new Map(rows.map((r) => [r.id, r.username]));
  }
}
