import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { UserEntity, verifyPassword } from '@app/identity';
import { MergeRequestEntity } from '@app/issues';
import { OutboxService } from '@app/messaging';
import { ACCESS_LEVELS } from '@app/namespaces';
import type { AccessUser, ProjectWithNamespace } from '@app/namespaces';
import { RepositoryStorage } from '@app/repository';
import { DataSource, EntityManager } from 'typeorm';
import { ApprovalRulesService, MergeRequestApprovalContext } from '../approval-rules.service';
import { APPROVALS_EVENTS, approvalEvent } from '../approvals.events';
import { CreateMergeRequestRuleDto, UpdateMergeRequestRuleDto } from '../dto/approvals.dto';
import { ApprovalMergeRequestRuleEntity, ApprovalProjectRuleEntity, MergeRequestApprovalEntity } from '../entities';
import { checkRule, notFound, ruleApprovers, ruleNotFound } from './project-approvals.use-cases';

/** The caller of a merge request approval endpoint. */
export interface ApprovalActor {
  id: number;
  isAdmin: boolean;
  external: boolean;
  /** Effective access level on the project. */
  accessLevel: number;
}

const groupIdOf = (project: ProjectWithNamespace): number | null => (project.namespace.kind === 'group' ? project.namespace.id : null);
const viewerOf = (actor: ApprovalActor): AccessUser => ({ id: actor.id, isAdmin: actor.isAdmin, external: actor.external });

export async function findMergeRequest(manager: EntityManager, projectId: number, iid: number, lock = false): Promise<MergeRequestEntity> {
  const mr = await manager.findOne(MergeRequestEntity, { where: { projectId, iid }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  if (!mr) throw DomainError.notFound('Merge Request');
  return mr;
}

/**
 * Who may approve, as GitLab's `ApprovalState#can_approve?`: not twice; the author only when
 * `merge_requests_author_approval`; a committer of the merge request not when
 * `merge_requests_disable_committers_approval`; then an eligible approver of one of its rules, or
 * (with no rule naming approvers, or an `any_approver` rule) any Developer or more.
 */
@Injectable()
export class ApprovalEligibility {
  constructor(private readonly storage: RepositoryStorage) {}

  async canApprove(context: MergeRequestApprovalContext, project: ProjectWithNamespace, actor: ApprovalActor, manager: EntityManager): Promise<boolean> {
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
  async committerIds(project: ProjectWithNamespace, mr: MergeRequestEntity, manager: EntityManager): Promise<Set<number>> {
    const repository = await this.storage.open(project);
    const [source, target] = await Promise.all([repository.refTarget(`refs/heads/${mr.sourceBranch}`), repository.refTarget(`refs/heads/${mr.targetBranch}`)]);
    if (!source) return new Set();
    const shas = await repository.revListShas(source, target ? [target] : [], { limit: 1000 });
    const emails = [...new Set((await repository.commits(shas)).map((commit) => commit.committerEmail.toLowerCase()))];
    if (emails.length === 0) return new Set();
    const rows = (await manager.query('SELECT id FROM users WHERE lower(email) = ANY($1)', [emails])) as Array<{ id: number }>;
    return new Set(rows.map((row) => row.id));
  }
}

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
    private readonly rules: ApprovalRulesService,
    private readonly eligibility: ApprovalEligibility,
    private readonly storage: RepositoryStorage,
  ) {}

  execute(project: ProjectWithNamespace, iid: number, actor: ApprovalActor, input: { sha?: string; password?: string }): Promise<MergeRequestEntity> {
    return this.dataSource.transaction(async (tx) => {
      const mr = await findMergeRequest(tx, project.id, iid, true);
      const context = await this.rules.context(mr, tx);
      if (!(await this.eligibility.canApprove(context, project, actor, tx))) throw DomainError.forbidden();
      if (input.sha !== undefined) {
        const head = await (await this.storage.open(project)).refTarget(`refs/heads/${mr.sourceBranch}`);
        if (input.sha !== head) throw DomainError.conflict(`SHA does not match HEAD of source branch: ${head ?? ''}`);
      }
      if (context.settings.requirePasswordToApprove) {
        const user = await tx.createQueryBuilder(UserEntity, 'u').addSelect('u.passwordDigest').where('u.id = :id', { id: actor.id }).getOne();
        if (input.password === undefined || !(await verifyPassword(input.password, user?.passwordDigest))) throw DomainError.unauthorized();
      }
      await tx.insert(MergeRequestApprovalEntity, { mergeRequestId: mr.id, userId: actor.id });
      const after = await this.rules.context(mr, tx);
      await this.outbox.append(tx, approvalEvent(APPROVALS_EVENTS.APPROVED, actor.id, mr, groupIdOf(project), { action: after.state.approved ? 'approved' : 'approval', approvalsLeft: after.state.approvalsLeft }));
      return mr;
    });
  }
}

/** `POST …/unapprove`: 404 when the caller has not approved. Records `merge_request.unapproved`. */
@Injectable()
export class UnapproveMergeRequestUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly rules: ApprovalRulesService,
  ) {}

  execute(project: ProjectWithNamespace, iid: number, actor: ApprovalActor): Promise<MergeRequestEntity> {
    return this.dataSource.transaction(async (tx) => {
      const mr = await findMergeRequest(tx, project.id, iid, true);
      const before = await this.rules.context(mr, tx);
      const result = await tx.delete(MergeRequestApprovalEntity, { mergeRequestId: mr.id, userId: actor.id });
      if (!result.affected) throw notFound();
      const after = await this.rules.context(mr, tx);
      const action = before.state.approved && !after.state.approved ? 'unapproved' : 'unapproval';
      await this.outbox.append(tx, approvalEvent(APPROVALS_EVENTS.UNAPPROVED, actor.id, mr, groupIdOf(project), { action, approvalsLeft: after.state.approvalsLeft }));
      return mr;
    });
  }
}

/** `PUT …/reset_approvals`: every approval removed (bots and maintainers; others 401 as GitLab). */
@Injectable()
export class ResetApprovalsUseCase {
  constructor(private readonly dataSource: DataSource) {}

  execute(project: ProjectWithNamespace, iid: number, actor: ApprovalActor & { bot: boolean }): Promise<void> {
    const allowed = actor.isAdmin || actor.accessLevel >= ACCESS_LEVELS.MAINTAINER || (actor.bot && actor.accessLevel >= ACCESS_LEVELS.DEVELOPER);
    return this.dataSource.transaction(async (tx) => {
      // As GitLab: the merge request is looked up first (404), then the caller checked (401).
      const mr = await findMergeRequest(tx, project.id, iid, true);
      if (!allowed) throw DomainError.unauthorized();
      await tx.delete(MergeRequestApprovalEntity, { mergeRequestId: mr.id });
    });
  }
}

/**
 * Merge request rules written through the API (`update_approvers`: the author or a Developer or
 * more, and only while `disable_overriding_approvers_per_merge_request` is off; else 403). Any
 * change marks the merge request's rules as overwritten: project rule changes no longer reach it.
 */
@Injectable()
export class MergeRequestRulesUseCases {
  constructor(
    private readonly dataSource: DataSource,
    private readonly rules: ApprovalRulesService,
  ) {}

  private async authorize(tx: EntityManager, mr: MergeRequestEntity, actor: ApprovalActor): Promise<void> {
    const canUpdate = actor.isAdmin || actor.accessLevel >= ACCESS_LEVELS.DEVELOPER || mr.authorId === actor.id;
    const settings = await this.rules.settingsOf(mr.projectId, tx);
    if (!canUpdate || settings.disableOverridingApproversPerMergeRequest) throw DomainError.forbidden();
  }

  create(project: ProjectWithNamespace, iid: number, actor: ApprovalActor, dto: CreateMergeRequestRuleDto): Promise<{ mr: MergeRequestEntity; rule: ApprovalMergeRequestRuleEntity }> {
    checkRule(dto.name, dto.approvals_required);
    return this.dataSource.transaction(async (tx) => {
      await this.rules.lockProjectRules(tx, project.id, 'shared');
      const mr = await findMergeRequest(tx, project.id, iid, true);
      await this.authorize(tx, mr, actor);
      const source = dto.approval_project_rule_id !== undefined ? await tx.findOneBy(ApprovalProjectRuleEntity, { id: dto.approval_project_rule_id, projectId: project.id }) : null;
      const name = source?.name ?? dto.name;
      if (await tx.existsBy(ApprovalMergeRequestRuleEntity, { mergeRequestId: mr.id, name })) throw DomainError.invalid({ name: ['has already been taken'] });
      const approvers = source ? { userIds: [...source.userIds], groupIds: [...source.groupIds] } : await ruleApprovers(this.rules, tx, project.id, viewerOf(actor), dto);
      const rule = await tx.save(
        tx.create(ApprovalMergeRequestRuleEntity, {
          mergeRequestId: mr.id,
          name,
          ruleType: source?.ruleType === 'any_approver' ? 'any_approver' : 'regular',
          reportType: null,
          approvalsRequired: dto.approvals_required,
          ...approvers,
          sourceRuleId: source?.id ?? null,
        }),
      );
      await this.rules.markOverwritten(tx, mr.id);
      return { mr, rule };
    });
  }

  update(project: ProjectWithNamespace, iid: number, ruleId: number, actor: ApprovalActor, dto: UpdateMergeRequestRuleDto): Promise<{ mr: MergeRequestEntity; rule: ApprovalMergeRequestRuleEntity }> {
    checkRule(dto.name, dto.approvals_required);
    return this.dataSource.transaction(async (tx) => {
      await this.rules.lockProjectRules(tx, project.id, 'shared');
      const mr = await findMergeRequest(tx, project.id, iid, true);
      const rule = await tx.findOneBy(ApprovalMergeRequestRuleEntity, { id: ruleId, mergeRequestId: mr.id });
      if (!rule) throw ruleNotFound();
      await this.authorize(tx, mr, actor);
      // report_approver and code_owner rules are system generated (GitLab: not `user_defined?`).
      if (rule.ruleType === 'report_approver' || rule.ruleType === 'code_owner') throw DomainError.forbidden();
      if (dto.name !== undefined && dto.name !== rule.name) {
        if (await tx.existsBy(ApprovalMergeRequestRuleEntity, { mergeRequestId: mr.id, name: dto.name })) throw DomainError.invalid({ name: ['has already been taken'] });
        rule.name = dto.name;
      }
      if (dto.approvals_required !== undefined) rule.approvalsRequired = dto.approvals_required;
      if (rule.ruleType !== 'any_approver') Object.assign(rule, await ruleApprovers(this.rules, tx, project.id, viewerOf(actor), dto, rule));
      const saved = await tx.save(rule);
      await this.rules.markOverwritten(tx, mr.id);
      return { mr, rule: saved };
    });
  }

  remove(project: ProjectWithNamespace, iid: number, ruleId: number, actor: ApprovalActor): Promise<void> {
    return this.dataSource.transaction(async (tx) => {
      await this.rules.lockProjectRules(tx, project.id, 'shared');
      const mr = await findMergeRequest(tx, project.id, iid, true);
      const rule = await tx.findOneBy(ApprovalMergeRequestRuleEntity, { id: ruleId, mergeRequestId: mr.id });
      if (!rule) throw ruleNotFound();
      await this.authorize(tx, mr, actor);
      if (rule.ruleType === 'report_approver' || rule.ruleType === 'code_owner') throw DomainError.forbidden();
      await tx.delete(ApprovalMergeRequestRuleEntity, { id: rule.id });
      await this.rules.markOverwritten(tx, mr.id);
    });
  }

  /**
   * `POST …/approvals` (deprecated `approvals_required`): the merge request's own floor, at least
   * the project's `approvals_before_merge` (else 400 with GitLab's message).
   */
  setApprovalsRequired(project: ProjectWithNamespace, iid: number, actor: ApprovalActor, approvalsRequired: number): Promise<MergeRequestEntity> {
    return this.dataSource.transaction(async (tx) => {
      const mr = await findMergeRequest(tx, project.id, iid, true);
      await this.authorize(tx, mr, actor);
      const settings = await this.rules.settingsOf(project.id, tx);
      if (approvalsRequired < settings.approvalsBeforeMerge) {
        throw DomainError.invalid({ validate_approvals_before_merge: ['Number of approvals must be at least that of approvals on the target project'] });
      }
      await this.rules.setApprovalsBeforeMerge(tx, mr.id, approvalsRequired);
      return mr;
    });
  }
}
