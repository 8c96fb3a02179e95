import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { ACCESS_LEVELS } from '@app/namespaces';
import type { ProjectWithNamespace } from '@app/namespaces';
import { DataSource } from 'typeorm';
import { ApprovalRulesRepository } from '../../core/approval-rules.repository';
import { ApprovalActor, requireMergeRequest } from '../approval-commands';

/** `PUT …/reset_approvals`: every approval removed (bots and maintainers; others 401 as GitLab). */
@Injectable()
export class ResetApprovalsUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: ApprovalRulesRepository,
  ) {}

  execute(project: ProjectWithNamespace, iid: number, actor: ApprovalActor & { bot: boolean }): Promise<void> {
    const allowed = actor.isAdmin || actor.accessLevel >= ACCESS_LEVELS.MAINTAINER || (actor.bot && actor.accessLevel >= ACCESS_LEVELS.DEVELOPER);
    return this.dataSource.transaction(async (tx) => {
      // As GitLab: the merge request is looked up first (404), then the caller checked (401).
      const mr = await requireMergeRequest(this.repository, tx, project.id, iid, true);
      if (!allowed) throw DomainError.unauthorized();
      await this.repository.deleteApprovals(tx, mr.id);
    });
  }
}
