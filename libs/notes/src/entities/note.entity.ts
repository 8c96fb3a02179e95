import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** What a note hangs on: GitLab's class names, stored and shown as `noteable_type`. Never rename. */
export const NOTEABLE_TYPES = ['Issue', 'MergeRequest', 'Snippet', 'Epic'] as const;
export type NoteableType = (typeof NOTEABLE_TYPES)[number];

/**
 * A comment on an issue, merge request, project snippet or epic, or a system note (`system`)
 * written by the service for a change. Timestamps keep milliseconds (precision 3) so that
 * keyset cursors carry them exactly.
 */
@Entity('notes')
@Index('notes_noteable_created_idx', ['noteableType', 'noteableId', 'createdAt', 'id'])
@Index('notes_noteable_updated_idx', ['noteableType', 'noteableId', 'updatedAt', 'id'])
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

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
