import type { EntityManager } from 'typeorm';
import type { MergeRequestEntity } from '../entities/merge-request.entity';

/**
 * What merge requests need from approval rules, implemented by the approvals module (which
 * depends on this one, hence a token rather than an import). Optional: without it (or below
 * PREMIUM) every merge request counts as approved.
 */
export const MERGE_REQUEST_APPROVALS = Symbol('MERGE_REQUEST_APPROVALS');

export interface MergeRequestApprovals {
  /**
   * In the transaction that opened a merge request or changed its target branch: its approval
   * rules follow the project rules that apply to the (new) target branch, unless they were
   * overwritten on the merge request.
   */
  targetChanged(tx: EntityManager, mr: MergeRequestEntity): Promise<void>;
  /** The ids among `mrs` of open merge requests whose approval rules still need approvals. */
  unapproved(mrs: MergeRequestEntity[], manager?: EntityManager): Promise<Set<number>>;
}
