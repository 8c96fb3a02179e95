import { Injectable } from '@nestjs/common';
import { MergeRequestEntity } from '@app/issues';
import { ACCESS_LEVELS } from '@app/namespaces';
import type { ProjectWithNamespace } from '@app/namespaces';
import { RepositoryStorage } from '@app/repository';
import { EntityManager } from 'typeorm';
import { ApprovalRulesRepository } from '../core/approval-rules.repository';
import type { ApprovalActor } from './approval-commands';
import type { MergeRequestApprovalContext } from './load-approval-contexts/load-approval-contexts.use-case';

/**
 * Who may approve, as GitLab's `ApprovalState#can_approve?`: not twice; the author only when
 * `merge_requests_author_approval`; a committer of the merge request not when
 * `merge_requests_disable_committers_approval`; then an eligible approver of one of its rules, or
 * (with no rule naming approvers, or an `any_approver` rule) any Developer or more.
 */
@Injectable()
export class ApprovalEligibility {
  constructor(
    private readonly storage: RepositoryStorage,
    private readonly repository: ApprovalRulesRepository,
  ) {}

  async canApprove(context: MergeRequestApprovalContext, project: ProjectWithNamespace, actor: ApprovalActor, manager?: EntityManager): Promise<boolean> {
    const { mr, settings } = context;
    if (mr.state !== 'opened') return false;
    if (context.approvals.some((approval) => approval.userId === actor.id)) return false;
    if (mr.authorId === actor.id && !settings.mergeRequestsAuthorApproval) return false;
    if (settings.mergeRequestsDisableCommittersApproval && (await this.committerIds(project, mr, manager)).has(actor.id)) return false;
    if (context.rules.some((rule) => rule.ruleType !== 'any_approver' && context.eligible.get(rule.id)!.has(actor.id))) return true;
    const namesApprovers = context.rules.some((rule) => rule.ruleType === 'regular' && context.eligible.get(rule.id)!.size > 0);
    const anyApprover = context.rules.some((rule) => rule.ruleType === 'any_approver');
    return (anyApprover || !namesApprovers) && (actor.isAdmin || actor.accessLevel >= ACCESS_LEVELS.DEVELOPER);
  }

  /** Users whose e-mail is the committer e-mail of a commit of the merge request (source commits not on the target). */
  private async committerIds(project: ProjectWithNamespace, mr: MergeRequestEntity, manager?: EntityManager): Promise<Set<number>> {
    const repository = await this.storage.open(project);
    const [source, target] = await Promise.all([repository.refTarget(`refs/heads/${mr.sourceBranch}`), repository.refTarget(`refs/heads/${mr.targetBranch}`)]);
    if (!source) return new Set();
    const shas = await repository.revListShas(source, target ? [target] : [], { limit: 1000 });
    const emails = [...new Set((await repository.commits(shas)).map((commit) => commit.committerEmail.toLowerCase()))];
    return this.repository.userIdsByEmails(emails, manager);
  }
}
