import { Injectable } from '@nestjs/common';
import { tierAtLeast } from '@app/api';
import { AppConfig } from '@app/config';
import { MergeRequestApprovals, MergeRequestEntity } from '@app/issues';
import { EntityManager } from 'typeorm';
import { LoadApprovalContextsUseCase } from './use-cases/load-approval-contexts/load-approval-contexts.use-case';
import { SyncRuleCopiesUseCase } from './use-cases/sync-rule-copies/sync-rule-copies.use-case';

/** What libs/issues and libs/repository ask of approvals (`MERGE_REQUEST_APPROVALS`): rule copies on retargeting, and the merge gate. */
@Injectable()
export class MergeRequestApprovalsAdapter implements MergeRequestApprovals {
  constructor(
    private readonly config: AppConfig,
    private readonly syncRuleCopies: SyncRuleCopiesUseCase,
    private readonly contexts: LoadApprovalContextsUseCase,
  ) {}

  /** The merge request's rules follow the project rules for its target branch (unless overwritten). */
  targetChanged(tx: EntityManager, mr: MergeRequestEntity): Promise<void> {
    return this.syncRuleCopies.execute(tx, { mergeRequest: mr });
  }

  /** Below PREMIUM nothing is gated. */
  async unapproved(mrs: MergeRequestEntity[], manager?: EntityManager): Promise<Set<number>> {
    const open = mrs.filter((mr) => mr.state === 'opened');
    if (!tierAtLeast(this.config.tier, 'premium') || open.length === 0) return new Set();
    const contexts = await this.contexts.execute(open, manager);
    return new Set(open.filter((mr) => !contexts.get(mr.id)!.state.approved).map((mr) => mr.id));
  }
}
