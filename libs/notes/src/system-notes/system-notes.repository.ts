import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { NoteableType } from '../entities/note.entity';

/** A system note to insert (one row of `insertForEvent`). */
export interface SystemNoteRow {
  noteable_type: string;
  noteable_id: number;
  project_id: number | null;
  group_id: number | null;
  author_id: number;
  body: string;
  system_note_action: string;
}

/** The statements of the system notes writer (`SystemNotesWriter`). */
@Injectable()
export class SystemNotesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Ids of the open merge requests of the project from this source branch that existed when the
   * push happened, in id order (a merge request opened after the push, before the push event was
   * handled, did not receive these commits).
   */
  async openMergeRequestIdsOfBranch(projectId: number | null, sourceBranch: string | undefined, pushedAt: Date): Promise<number[]> {
    const rows = (await this.dataSource.query(
      `SELECT id FROM merge_requests WHERE project_id = $1 AND source_branch = $2 AND state = 'opened' AND created_at <= $3 ORDER BY id`,
      [projectId, sourceBranch, pushedAt],
    )) as Array<{ id: number }>;
    return rows.map((r) => r.id);
  }

  /**
   * The issue or merge request `iid` of the project a commit mentions, unless it already has a
   * system note of this body (GitLab's `cross_reference_exists?`), with the id of the user of the
   * commit author's e-mail (null when none).
   */
  async mentionTarget(
    noteableType: NoteableType,
    projectId: number | null,
    iid: number,
    authorEmail: string,
    body: string,
  ): Promise<{ id: number; author_id: number | null } | undefined> {
    const table = noteableType === 'Issue' ? 'issues' : 'merge_requests';
    const [found] = (await this.dataSource.query(
      `SELECT t.id, (SELECT u.id FROM users u WHERE lower(u.email) = lower($3) LIMIT 1) AS author_id FROM ${table} t
       WHERE t.project_id = $1 AND t.iid = $2
         AND NOT EXISTS (SELECT 1 FROM notes n WHERE n.noteable_type = $4 AND n.noteable_id = t.id AND n.system AND n.body = $5)`,
      [projectId, iid, authorEmail, noteableType, body],
    )) as Array<{ id: number; author_id: number | null }>;
    return found;
  }

  /** Usernames of these users (those that exist), by id. */
  async usernames(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = (await this.dataSource.query(`SELECT id, username FROM users WHERE id = ANY($1)`, [ids])) as Array<{ id: number; username: string }>;
    return new Map(rows.map((r) => [r.id, r.username]));
  }

  /** Inserts the system notes of one event (a note already written for its event and action is skipped). */
  async insertForEvent(rows: SystemNoteRow[], eventId: string, occurredAt: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO notes (noteable_type, noteable_id, project_id, group_id, author_id, body, system, system_note_action, source_event_id, created_at, updated_at)
       SELECT r.noteable_type, r.noteable_id, r.project_id, r.group_id, r.author_id, r.body, true, r.system_note_action, $2, $3, $3
       FROM jsonb_to_recordset($1::jsonb) AS r(noteable_type varchar, noteable_id int, project_id int, group_id int, author_id int, body text, system_note_action varchar)
       ON CONFLICT (source_event_id, system_note_action) WHERE source_event_id IS NOT NULL DO NOTHING`,
      [JSON.stringify(rows), eventId, occurredAt],
    );
  }

  /** Deletes the notes of a removed record, the awards on them and the awards on the record, in one transaction. */
  async removeNotesOf(noteableType: string, noteableId: number): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      await tx.query(
        `WITH gone AS (DELETE FROM notes WHERE noteable_type = $1 AND noteable_id = $2 RETURNING id)
         DELETE FROM award_emoji a WHERE (a.awardable_type = $1 AND a.awardable_id = $2) OR (a.awardable_type = 'Note' AND a.awardable_id IN (SELECT id FROM gone))`,
        [noteableType, noteableId],
      );
    });
  }
}
