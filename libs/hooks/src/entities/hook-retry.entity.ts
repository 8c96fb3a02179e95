import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A delivery of one event to one hook whose outcome is not final yet: a failed attempt waiting
 * for its retry (or an attempt the fan-out handed over). The record from which the retry job
 * (`<eventId>_<hookId>`) is rebuilt when Redis loses it; removed at the final outcome.
 */
@Entity('system_hook_retries')
@Index('system_hook_retries_due_at_idx', ['dueAt'])
export class HookRetryEntity {
  @PrimaryColumn({ name: 'event_id', type: 'uuid' })
  eventId: string;

  @PrimaryColumn({ name: 'hook_id', type: 'int' })
  hookId: number;

  /** The number of the next attempt (2 for the first retry). */
  @Column({ type: 'int' })
  attempt: number;

  /** When the next attempt is due. */
  @Column({ name: 'due_at', type: 'timestamptz' })
  dueAt: Date;
}
