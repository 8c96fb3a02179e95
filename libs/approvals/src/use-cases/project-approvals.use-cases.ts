import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode } from '@app/api';
import type { AccessUser } from '@app/namespaces';
import { ProtectedBranchesRepository } from '@app/repository';
import { DataSource, EntityManager } from 'typeorm';
import { ApprovalRulesService } from '../approval-rules.service';
import { APPROVALS_REQUIRED_MAX, CreateProjectRuleDto, UpdateProjectApprovalsDto, UpdateProjectRuleDto } from '../dto/approvals.dto';
import { ApprovalProjectRuleEntity, ApprovalProjectSettingsEntity } from '../entities';

/** GitLab's bare `not_found!` (a record found by `find`). */
export const notFound = (): DomainError => new DomainError(ErrorCode.NOT_FOUND, '404 Not found', { subject: '' });
export const ruleNotFound = notFound;

/** Validation of what every rule shares (GitLab's messages). */
export function checkRule(name: string | undefined, approvalsRequired: number | undefined): void {
  const errors: Record<string, string[]> = {};
  if (name !== undefined && name.trim() === '') errors.name = ["can't be blank"];
  if (approvalsRequired !== undefined && approvalsRequired > APPROVALS_REQUIRED_MAX) errors.approvals_required = [`must be less than or equal to ${APPROVALS_REQUIRED_MAX}`];
  if (Object.keys(errors).length) throw DomainError.invalid(errors);
}

/**
 * The approvers a rule keeps: users with access to the project (others are dropped, as GitLab
 * filters them), groups the caller can see, plus (on update) the hidden groups it already had
 * unless `remove_hidden_groups`.
 */
export async function ruleApprovers(
  rules: ApprovalRulesService,
  tx: EntityManager,
  projectId: number,
  viewer: AccessUser,
  input: { user_ids?: number[]; group_ids?: number[]; remove_hidden_groups?: boolean },
  current?: { userIds: number[]; groupIds: number[] },
): Promise<{ userIds: number[]; groupIds: number[] }> {
  const userIds = input.user_ids !== undefined ? await rules.projectUserIds(projectId, input.user_ids, tx) : (current?.userIds ?? []);
  let groupIds = current?.groupIds ?? [];
  if (input.group_ids !== undefined) {
    const visible = await rules.visibleGroupIds(input.group_ids, viewer, tx);
    groupIds = [...new Set(input.group_ids)].filter((id) => visible.has(id));
    if (current && !input.remove_hidden_groups) {
      const stillVisible = await rules.visibleGroupIds(current.groupIds, viewer, tx);
      const existing = await rules.groups(current.groupIds, tx);
      groupIds.push(...current.groupIds.filter((id) => existing.has(id) && !stillVisible.has(id) && !groupIds.includes(id)));
    }
  }
  return { userIds, groupIds };
}

const duplicateName = (): DomainError => DomainError.invalid({ name: ['has already been taken'] });

/** `POST /projects/:id/approvals`: only the given attributes change. */
@Injectable()
export class UpdateProjectApprovalsUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly rules: ApprovalRulesService,
  ) {}

  execute(projectId: number, dto: UpdateProjectApprovalsDto): Promise<ApprovalProjectSettingsEntity> {
    return this.dataSource.transaction(async (tx) => {
      const settings = await this.rules.settingsOf(projectId, tx);
      if (dto.approvals_before_merge !== undefined) {
        await this.rules.setProjectApprovalsBeforeMerge(tx, projectId, dto.approvals_before_merge);
        settings.approvalsBeforeMerge = dto.approvals_before_merge;
      }
      if (dto.reset_approvals_on_push !== undefined) settings.resetApprovalsOnPush = dto.reset_approvals_on_push;
      if (dto.disable_overriding_approvers_per_merge_request !== undefined) settings.disableOverridingApproversPerMergeRequest = dto.disable_overriding_approvers_per_merge_request;
      if (dto.merge_requests_author_approval !== undefined) settings.mergeRequestsAuthorApproval = dto.merge_requests_author_approval;
      if (dto.merge_requests_disable_committers_approval !== undefined) settings.mergeRequestsDisableCommittersApproval = dto.merge_requests_disable_committers_approval;
      if (dto.require_password_to_approve !== undefined) settings.requirePasswordToApprove = dto.require_password_to_approve;
      const approvalsBeforeMerge = settings.approvalsBeforeMerge;
      const saved = await tx.save(settings);
      saved.approvalsBeforeMerge = approvalsBeforeMerge;
      return saved;
    });
  }
}

/**
 * `POST /projects/:id/approval_rules`. `any_approver` (at most one per project) has no approvers;
 * a `report_type` makes a `report_approver` rule. The open merge requests whose rules were not
 * overwritten get a copy when the rule applies to their target branch.
 */
@Injectable()
export class CreateProjectRuleUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly rules: ApprovalRulesService,
    private readonly protectedBranches: ProtectedBranchesRepository,
  ) {}

  execute(projectId: number, viewer: AccessUser, dto: CreateProjectRuleDto): Promise<ApprovalProjectRuleEntity> {
    checkRule(dto.name, dto.approvals_required);
    const ruleType = dto.report_type ? 'report_approver' : (dto.rule_type ?? 'regular');
    if (ruleType === 'report_approver' && !dto.report_type) throw DomainError.invalid({ report_type: ["can't be blank"] });
    return this.dataSource.transaction(async (tx) => {
      await this.rules.lockProjectRules(tx, projectId, 'exclusive');
      if (await tx.existsBy(ApprovalProjectRuleEntity, { projectId, name: dto.name })) throw duplicateName();
      if (ruleType === 'any_approver' && (await tx.existsBy(ApprovalProjectRuleEntity, { projectId, ruleType: 'any_approver' }))) {
        throw DomainError.invalid({ rule_type: ['any-approver for the project already exists'] });
      }
      const approvers = ruleType === 'any_approver' ? { userIds: [], groupIds: [] } : await ruleApprovers(this.rules, tx, projectId, viewer, dto);
      const rule = await tx.save(
        tx.create(ApprovalProjectRuleEntity, {
          projectId,
          name: dto.name,
          ruleType,
          reportType: ruleType === 'report_approver' ? dto.report_type! : null,
          approvalsRequired: dto.approvals_required,
          ...approvers,
          protectedBranchIds: await this.branchIds(tx, projectId, dto.protected_branch_ids ?? []),
        }),
      );
      await this.rules.syncProject(tx, projectId);
      return rule;
    });
  }

  /** The ids that are protected branches of the project (others are ignored, as GitLab does). */
  async branchIds(tx: EntityManager, projectId: number, ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const found = new Set((await this.protectedBranches.list(projectId, { ids }, tx)).map((pb) => pb.id));
    return [...new Set(ids)].filter((id) => found.has(id));
  }
}

/** `PUT /projects/:id/approval_rules/:approval_rule_id`: users and groups not listed are removed. */
@Injectable()
export class UpdateProjectRuleUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly rules: ApprovalRulesService,
    private readonly create: CreateProjectRuleUseCase,
  ) {}

  execute(projectId: number, ruleId: number, viewer: AccessUser, dto: UpdateProjectRuleDto): Promise<ApprovalProjectRuleEntity> {
    checkRule(dto.name, dto.approvals_required);
    return this.dataSource.transaction(async (tx) => {
      await this.rules.lockProjectRules(tx, projectId, 'exclusive');
      const rule = await tx.findOne(ApprovalProjectRuleEntity, { where: { id: ruleId, projectId }, lock: { mode: 'pessimistic_write' } });
      if (!rule) throw ruleNotFound();
      if (dto.name !== undefined && dto.name !== rule.name) {
        if (await tx.existsBy(ApprovalProjectRuleEntity, { projectId, name: dto.name })) throw duplicateName();
        rule.name = dto.name;
      }
      if (dto.approvals_required !== undefined) rule.approvalsRequired = dto.approvals_required;
      if (rule.ruleType !== 'any_approver') Object.assign(rule, await ruleApprovers(this.rules, tx, projectId, viewer, dto, rule));
      if (dto.protected_branch_ids !== undefined) rule.protectedBranchIds = await this.create.branchIds(tx, projectId, dto.protected_branch_ids);
      const saved = await tx.save(rule);
      await this.rules.syncProject(tx, projectId);
      return saved;
    });
  }
}

/** `DELETE /projects/:id/approval_rules/:approval_rule_id`: copies on merge requests that were not overwritten go too. */
@Injectable()
export class DeleteProjectRuleUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly rules: ApprovalRulesService,
  ) {}

  execute(projectId: number, ruleId: number): Promise<void> {
    return this.dataSource.transaction(async (tx) => {
      await this.rules.lockProjectRules(tx, projectId, 'exclusive');
      const rule = await tx.findOne(ApprovalProjectRuleEntity, { where: { id: ruleId, projectId }, lock: { mode: 'pessimistic_write' } });
      if (!rule) throw ruleNotFound();
      await tx.delete(ApprovalProjectRuleEntity, { id: rule.id });
      await this.rules.syncProject(tx, projectId);
    });
  }
}
