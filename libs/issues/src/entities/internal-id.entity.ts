import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Kinds of per-project (or per-group) `iid` sequences. Never rename: stored values. */
export const IID_USAGES = {
  ISSUES: 'issues',
  MERGE_REQUESTS: 'merge_requests',
  MILESTONES: 'milestones',
  ITERATIONS: 'iterations',
  EPICS: 'epics',
} as const;

export type IidUsage = (typeof IID_USAGES)[keyof typeof IID_USAGES];

/**
 * The last `iid` handed out per (scope, usage). Incremented with an upsert inside the
 * creating transaction: the row lock serializes concurrent creations and a rollback gives
 * the number back, so iids stay gap-free.
 */
@Entity('internal_ids')
export class InternalIdEntity {
  /** `project` or `group`. */
  @PrimaryColumn({ name: 'scope_type', type: 'varchar', length: 10 })
  scopeType: 'project' | 'group';

  @PrimaryColumn({ name: 'scope_id', type: 'int' })
  scopeId: number;

  @PrimaryColumn({ type: 'varchar', length: 30 })
  usage: IidUsage;

  @Column({ name: 'last_value', type: 'int' })
  lastValue: number;
}
