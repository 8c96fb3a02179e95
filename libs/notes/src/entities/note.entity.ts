import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** What a note hangs on: GitLab's class names, stored and shown as `noteable_type`. Never rename. */
export const NOTEABLE_TYPES = ['Issue', 'MergeRequest', 'Snippet', 'Epic'] as const;
export type NoteableType = (typeof NOTEABLE_TYPES)[number];

const NEW_DISCUSSION_ID = 'substr(md5(random()::text || clock_timestamp()::text) || md5(clock_timestamp()::text || random()::text), 1, 40)';

/**
 * A comment on an issue, merge request, project snippet or epic, or a system note (`system`)
 * written by the service for a change. Timestamps keep milliseconds (precision 3) so that
 * keyset cursors carry them exactly.
 */
@Entity('notes')
@Index('notes_noteable_created_idx', ['noteableType', 'noteableId', 'createdAt', 'id'])
@Index('notes_noteable_updated_idx', ['noteableType', 'noteableId', 'updatedAt', 'id'])
@Index('notes_discussion_idx', ['discussionId', 'id'])
export class NoteEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'noteable_type', type: 'varchar', length: 20 })
  noteableType: NoteableType;

  @Column({ name: 'noteable_id', type: 'int' })
  noteableId: number;

  /** The noteable's project (issues, merge requests, snippets); null for epics. */
  @Column({ name: 'project_id', type: 'int', nullable: true })
  projectId: number | null;

  /** The epic's group; null for project noteables. */
  @Column({ name: 'group_id', type: 'int', nullable: true })
  groupId: number | null;

  @Column({ name: 'author_id', type: 'int' })
  authorId: number;

  @Column({ type: 'text' })
  body: string;

  @Column({ default: false })
  system: boolean;

  /** `internal` (formerly `confidential`): readable by Reporter+ and its author only. */
  @Column({ default: false })
  internal: boolean;

  /** System notes: what they record (`assignee`, `title`, `description`, `commit`...). */
  @Column({ name: 'system_note_action', type: 'varchar', length: 30, nullable: true })
  systemNoteAction: string | null;

  /** System notes: the domain event they were written for (idempotence of the writer). */
  @Column({ name: 'source_event_id', type: 'uuid', nullable: true })
  sourceEventId: string | null;

  /** The discussion (thread) the note is in: 40 hex characters; an individual note is a discussion of its own (a new id, drawn by the database). */
  @Column({ name: 'discussion_id', type: 'varchar', length: 40, default: () => NEW_DISCUSSION_ID })
  discussionId: string;

  /** `DiscussionNote` for the notes of a thread (started with `POST …/discussions`, or a reply); null for an individual note. */
  @Column({ type: 'varchar', length: 30, nullable: true })
  type: 'DiscussionNote' | null;

  /** Merge request threads: when and by whom the thread was resolved (on each of its notes). */
  @Column({ name: 'resolved_at', type: 'timestamptz', nullable: true })
  resolvedAt: Date | null;

  @Column({ name: 'resolved_by_id', type: 'int', nullable: true })
  resolvedById: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
