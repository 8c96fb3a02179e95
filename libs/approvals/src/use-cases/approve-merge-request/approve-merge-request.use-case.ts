import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { verifyPassword } from '@app/identity';
import { MergeRequestEntity } from '@app/issues';
import { OutboxService } from '@app/messaging';
import type { ProjectWithNamespace } from '@app/namespaces';
import { RepositoryStorage } from '@app/repository';
import { DataSource } from 'typeorm';
import { ApprovalEligibility } from '../approval-eligibility';
import { ApprovalRulesRepository } from '../../core/approval-rules.repository';
import { APPROVALS_EVENTS, approvalEvent } from '../../core/approvals.events';
import { ApprovalActor, groupIdOf, requireMergeRequest } from '../approval-commands';
import { LoadApprovalContextsUseCase } from '../load-approval-contexts/load-approval-contexts.use-case';

/**
 * `POST …/approve`: 403 when the caller may not approve (see `ApprovalEligibility`), 409 when
 * `sha` is not the source head, 401 when `require_password_to_approve` and `approval_password`
 * is not the caller's password. Records `merge_request.approved` (action `approved` once nothing
 * is missing, else `approval`) with the approval, in one transaction.
 */
@Injectable()
export class ApproveMergeRequestUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly repository: ApprovalRulesRepository,
    private readonly contexts: LoadApprovalContextsUseCase,
    private readonly eligibility: ApprovalEligibility,
    private readonly storage: RepositoryStorage,
  ) {}

  execute(project: ProjectWithNamespace, iid: number, actor: ApprovalActor, input: { sha?: string; password?: string }): Promise<MergeRequestEntity> {
    return this.dataSource.transaction(async (tx) => {
      const mr = await requireMergeRequest(this.repository, tx, project.id, iid, true);
      const context = (await this.contexts.execute([mr], tx)).get(mr.id)!;
      if (!(await this.eligibility.canApprove(context, project, actor, tx))) throw DomainError.forbidden();
      if (input.sha !== undefined) {
        const head = await (await this.storage.open(project)).refTarget(`refs/heads/${mr.sourceBranch}`);
        if (input.sha !== head) throw DomainError.conflict(`SHA does not match HEAD of source branch: ${head ?? ''}`);
      }
      if (context.settings.requirePasswordToApprove) {
        const digest = await this.repository.passwordDigestOf(actor.id, tx);
        if (input.password === undefined || !(await verifyPassword(input.password, digest))) throw DomainError.unauthorized();
      }
      await this.repository.insertApproval(tx, mr.id, actor.id);
      const after = (await this.contexts.execute([mr], tx)).get(mr.id)!;
      await this.outbox.append(
        tx,
        approvalEvent(APPROVALS_EVENTS.APPROVED, actor.id, mr, groupIdOf(project), {
          action: after.state.approved ? 'approved' : 'approval',
          approvalsLeft: after.state.approvalsLeft,
        }),
      );
      return mr;
    });
  }
}
