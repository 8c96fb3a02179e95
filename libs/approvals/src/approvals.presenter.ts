import { Injectable } from '@nestjs/common';
import { tierAtLeast } from '@app/api';
import { AppConfig } from '@app/config';
import { presentUserSummary, UserEntity } from '@app/identity';
import type { MergeRequestEntity } from '@app/issues';
import { namespaceWebUrl, NamespaceEntity } from '@app/namespaces';
import type { AccessUser } from '@app/namespaces';
import { presentProtectedBranch, ProtectedBranchesRepository } from '@app/repository';
import type { EntityManager } from 'typeorm';
import { ApprovalRulesRepository } from './core/approval-rules.repository';
import { APPROVER_MIN_LEVEL } from './core/approval-state';
import { ApprovalMergeRequestRuleEntity, ApprovalProjectRuleEntity, ApprovalProjectSettingsEntity } from './entities';
import type { MergeRequestApprovalContext } from './use-cases/load-approval-contexts/load-approval-contexts.use-case';

type View = Record<string, unknown>;

const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
const sameIds = (a: readonly number[], b: readonly number[]): boolean =>
  JSON.stringify([...a].sort((x, y) => x - y)) === JSON.stringify([...b].sort((x, y) => x - y));

/** Approval configuration, rules, status and state in GitLab's shapes (users, groups and group members loaded in batches). */
@Injectable()
export class ApprovalsPresenter {
  constructor(
    private readonly config: AppConfig,
    private readonly repository: ApprovalRulesRepository,
    private readonly protectedBranches: ProtectedBranchesRepository,
  ) {}

  private get externalUrl(): string {
    return this.config.http.externalUrl;
  }

  /** `GET/POST /projects/:id/approvals`. */
  settings(settings: ApprovalProjectSettingsEntity): View {
    return {
      approvers: [],
      approver_groups: [],
      approvals_before_merge: settings.approvalsBeforeMerge,
      reset_approvals_on_push: settings.resetApprovalsOnPush,
      selective_code_owner_removals: false,
      disable_overriding_approvers_per_merge_request: settings.disableOverridingApproversPerMergeRequest,
      merge_requests_author_approval: settings.mergeRequestsAuthorApproval,
      merge_requests_disable_committers_approval: settings.mergeRequestsDisableCommittersApproval,
      require_password_to_approve: settings.requirePasswordToApprove,
    };
  }

  private group(group: NamespaceEntity): View {
    const settings = (group.settings ?? {}) as Record<string, unknown>;
    return {
      id: group.id,
      web_url: namespaceWebUrl(group, this.externalUrl),
      name: group.name,
      path: group.path,
      description: group.description,
      visibility: group.visibility,
      lfs_enabled: settings.lfs_enabled ?? true,
      avatar_url: null,
      request_access_enabled: settings.request_access_enabled ?? true,
      full_name: group.fullName,
      full_path: group.fullPath,
      parent_id: group.parentId,
      ldap_cn: null,
      ldap_access: null,
    };
  }

  /** The common part of project and merge request rules: users, visible groups, eligible approvers. */
  private async common(
    rules: Array<ApprovalProjectRuleEntity | ApprovalMergeRequestRuleEntity>,
    viewer: AccessUser | null,
    excluded: ReadonlySet<number> = new Set(),
    manager?: EntityManager,
  ): Promise<Map<number, View>> {
    const groupIds = rules.flatMap((rule) => rule.groupIds);
    const [members, visible, groups] = await Promise.all([
      this.repository.groupMembers(groupIds, APPROVER_MIN_LEVEL, manager),
      this.repository.visibleGroupIds(groupIds, viewer, manager),
      this.repository.groups(groupIds, manager),
    ]);
    const eligibleIds = new Map(
      rules.map((rule) => [
        rule.id,
        [...new Set([...rule.userIds, ...rule.groupIds.flatMap((id) => [...(members.get(id) ?? [])])])].filter((id) => !excluded.has(id)),
      ]),
    );
    const users = await this.repository.users([...rules.flatMap((rule) => rule.userIds), ...[...eligibleIds.values()].flat()], manager);
    const summaries = (ids: number[]) =>
      ids
        .map((id) => users.get(id))
        .filter((u): u is UserEntity => !!u)
        .sort(byId)
        .map((u) => presentUserSummary(u, this.externalUrl));
    const views = new Map<number, View>();
    for (const rule of rules) {
      const existing = rule.groupIds.map((id) => groups.get(id)).filter((g): g is NamespaceEntity => !!g);
      views.set(rule.id, {
        id: rule.id,
        name: rule.name,
        rule_type: rule.ruleType,
        report_type: rule.reportType,
        eligible_approvers: summaries(eligibleIds.get(rule.id)!),
        approvals_required: rule.approvalsRequired,
        users: summaries(rule.userIds),
        groups: existing
          .filter((g) => visible.has(g.id))
          .sort(byId)
          .map((g) => this.group(g)),
        contains_hidden_groups: existing.some((g) => !visible.has(g.id)),
      });
    }
    return views;
  }

  /** Project rules, with their protected branches. */
  async projectRules(projectId: number, rules: ApprovalProjectRuleEntity[], viewer: AccessUser | null): Promise<View[]> {
    const views = await this.common(rules, viewer);
    const branchIds = [...new Set(rules.flatMap((rule) => rule.protectedBranchIds))];
    const branches = branchIds.length > 0 ? await this.protectedBranches.list(projectId, { ids: branchIds }) : [];
    const premium = tierAtLeast(this.config.tier, 'premium');
    return rules.map((rule) => ({
      ...views.get(rule.id)!,
      protected_branches: branches.filter((pb) => rule.protectedBranchIds.includes(pb.id)).map((pb) => presentProtectedBranch(pb, premium)),
      applies_to_all_protected_branches: false,
    }));
  }

  /** Merge request rules (`source_rule`, `overridden`); with `withState`, also `approved_by` and `approved` (approval state). */
  async mergeRequestRules(
    context: MergeRequestApprovalContext,
    rules: ApprovalMergeRequestRuleEntity[],
    viewer: AccessUser | null,
    withState = false,
  ): Promise<View[]> {
    const { mr, settings } = context;
    const excluded = settings.mergeRequestsAuthorApproval ? new Set<number>() : new Set([mr.authorId]);
    const views = await this.common(rules, viewer, excluded);
    const sources = await this.repository.projectRulesById(rules.map((rule) => rule.sourceRuleId).filter((id): id is number => id !== null));
    const approvers = withState ? await this.repository.users(context.approvals.map((a) => a.userId)) : new Map<number, UserEntity>();
    return rules.map((rule) => {
      const source = rule.sourceRuleId !== null ? sources.get(rule.sourceRuleId) : undefined;
      const userDefined = rule.ruleType === 'regular' || rule.ruleType === 'any_approver';
      const overridden =
        !!source &&
        userDefined &&
        (source.name !== rule.name ||
          source.approvalsRequired !== rule.approvalsRequired ||
          !sameIds(source.userIds, rule.userIds) ||
          !sameIds(source.groupIds, rule.groupIds));
      const view: View = { ...views.get(rule.id)!, source_rule: source ? { approvals_required: source.approvalsRequired } : null, section: null, overridden };
      if (withState) {
        const state = context.state.rules.find((r) => r.id === rule.id)!;
        view.code_owner = rule.ruleType === 'code_owner';
        view.approved_by = state.approvedBy
          .map((id) => approvers.get(id))
          .filter((u): u is UserEntity => !!u)
          .map((u) => presentUserSummary(u, this.externalUrl));
        view.approved = state.approved;
      }
      return view;
    });
  }

  /** `GET …/approval_state`. */
  async approvalState(context: MergeRequestApprovalContext, viewer: AccessUser | null): Promise<View> {
    return { approval_rules_overwritten: context.overwritten, rules: await this.mergeRequestRules(context, context.rules, viewer, true) };
  }

  /** `GET …/approvals` (merge request approval status). `mergeStatus`: the merge request's `merge_status`. */
  async approvalStatus(context: MergeRequestApprovalContext, mergeStatus: string, viewer: { id: number } | null, userCanApprove: boolean): Promise<View> {
    const { mr, state } = context;
    const approvers = await this.repository.users(context.approvals.map((a) => a.userId));
    const approvedBy = context.approvals.map((a) => approvers.get(a.userId)).filter((u): u is UserEntity => !!u);
    const left = context.rules.filter((rule) => !state.rules.find((r) => r.id === rule.id)!.approved);
    return {
      ...this.mergeRequestIdentity(mr),
      merge_status: mergeStatus,
      approved: state.approved,
      approvals_required: state.approvalsRequired,
      approvals_left: state.approvalsLeft,
      require_password_to_approve: context.settings.requirePasswordToApprove,
      approved_by: approvedBy.map((user) => ({ user: presentUserSummary(user, this.externalUrl) })),
      suggested_approvers: [],
      approvers: [],
      approver_groups: [],
      user_has_approved: viewer ? context.approvals.some((a) => a.userId === viewer.id) : false,
      user_can_approve: userCanApprove,
      approval_rules_left: left.map((rule) => ({ id: rule.id, name: rule.name, rule_type: rule.ruleType })),
      has_approval_rules: context.rules.length > 0,
      merge_request_approvers_available: true,
      multiple_approval_rules_available: true,
      invalid_approvers_rules: [],
    };
  }

  private mergeRequestIdentity(mr: MergeRequestEntity): View {
    return {
      id: mr.id,
      iid: mr.iid,
      project_id: mr.projectId,
      title: mr.title,
      description: mr.description,
      state: mr.state,
      created_at: mr.createdAt.toISOString(),
      updated_at: mr.updatedAt.toISOString(),
    };
  }
}
