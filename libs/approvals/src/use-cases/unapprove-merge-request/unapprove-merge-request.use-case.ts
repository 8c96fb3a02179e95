import { Injectable } from '@nestjs/common';
import { MergeRequestEntity } from '@app/issues';
import { OutboxService } from '@app/messaging';
import type { ProjectWithNamespace } from '@app/namespaces';
import { DataSource } from 'typeorm';
import { ApprovalRulesRepository } from '../../core/approval-rules.repository';
import { APPROVALS_EVENTS, approvalEvent } from '../../core/approvals.events';
import { ApprovalActor, groupIdOf, notFound, requireMergeRequest } from '../approval-commands';
import { LoadApprovalContextsUseCase } from '../load-approval-contexts/load-approval-contexts.use-case';

/** `POST …/unapprove`: 404 when the caller has not approved. Records `merge_request.unapproved`. */
@Injectable()
export class UnapproveMergeRequestUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly repository: ApprovalRulesRepository,
    private readonly contexts: LoadApprovalContextsUseCase,
  ) {}

  execute(project: ProjectWithNamespace, iid: number, actor: ApprovalActor): Promise<MergeRequestEntity> {
    return this.dataSource.transaction(async (tx) => {
      const mr = await requireMergeRequest(this.repository, tx, project.id, iid, true);
      const before = (await this.contexts.execute([mr], tx)).get(mr.id)!;
      if (!(await this.repository.deleteApproval(tx, mr.id, actor.id))) throw notFound();
      const after = (await this.contexts.execute([mr], tx)).get(mr.id)!;
      const action = before.state.approved && !after.state.approved ? 'unapproved' : 'unapproval';
      await this.outbox.append(
        tx,
        approvalEvent(APPROVALS_EVENTS.UNAPPROVED, actor.id, mr, groupIdOf(project), { action, approvalsLeft: after.state.approvalsLeft }),
      );
      return mr;
    });
  }
}
