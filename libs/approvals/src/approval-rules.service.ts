import { Injectable } from '@nestjs/common';
import { tierAtLeast } from '@app/api';
import { AppConfig } from '@app/config';
import { UserEntity } from '@app/identity';
import { MergeRequestApprovals, MergeRequestEntity } from '@app/issues';
import { activeMembershipSql, groupVisibilitySql, NamespaceEntity } from '@app/namespaces';
import type { AccessUser } from '@app/namespaces';
import { matchesBranch, ProtectedBranchesRepository } from '@app/repository';
import { DataSource, EntityManager, In } from 'typeorm';
import { ApprovalStateResult, computeApprovalState, ruleAppliesTo, StateRule } from './approval-state';
import { ApprovalMergeRequestRuleEntity, ApprovalProjectRuleEntity, ApprovalProjectSettingsEntity, MergeRequestApprovalEntity, MergeRequestApprovalStateEntity } from './entities';

/** Developer: the lowest role whose group membership makes a user an approver of a group rule (as GitLab). */
const APPROVER_MIN_LEVEL = 30;

/** Everything the approval state of one merge request is computed from. */
export interface MergeRequestApprovalContext {
  mr: MergeRequestEntity;
  settings: ApprovalProjectSettingsEntity;
  rules: ApprovalMergeRequestRuleEntity[];
  /** Rule id → users whose approval counts (rule users and members of its groups and their ancestors). */
  eligible: Map<number, Set<number>>;
  approvals: MergeRequestApprovalEntity[];
  overwritten: boolean;
  /** The deprecated floor: the merge request's own `approvals_required`, else the project's `approvals_before_merge`. */
  floor: number;
  state: ApprovalStateResult;
}

/**
 * Approval rules and state: the project configuration (GitLab's defaults without a row), copies
 * of the project rules on merge requests, eligible approvers, and the state that gates merging
 * (`MERGE_REQUEST_APPROVALS`, provided to libs/issues and libs/repository).
 */
@Injectable()
export class ApprovalRulesService implements MergeRequestApprovals {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly protectedBranches: ProtectedBranchesRepository,
  ) {}

  get enabled(): boolean {
    return tierAtLeast(this.config.tier, 'premium');
  }

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  /** The project's approval configuration (an unsaved row with GitLab's defaults when never configured). */
  async settingsOf(projectId: number, manager?: EntityManager): Promise<ApprovalProjectSettingsEntity> {
    const repo = this.manager(manager).getRepository(ApprovalProjectSettingsEntity);
    const settings =
      (await repo.findOneBy({ projectId })) ??
      repo.create({ projectId, resetApprovalsOnPush: true, disableOverridingApproversPerMergeRequest: false, mergeRequestsAuthorApproval: false, mergeRequestsDisableCommittersApproval: false, requirePasswordToApprove: false });
    const [row] = (await this.manager(manager).query(`SELECT settings->'approvals_before_merge' AS value FROM projects WHERE id = $1`, [projectId])) as Array<{ value: unknown }>;
    settings.approvalsBeforeMerge = typeof row?.value === 'number' ? row.value : 0;
    return settings;
  }

  /** The project attribute `approvals_before_merge` (the one `PUT /projects/:id` sets too). */
  async setProjectApprovalsBeforeMerge(tx: EntityManager, projectId: number, value: number): Promise<void> {
    await tx.query(`UPDATE projects SET settings = jsonb_set(COALESCE(settings, '{}'::jsonb), '{approvals_before_merge}', to_jsonb($2::int)) WHERE id = $1`, [projectId, value]);
  }

  /** Active members with Developer or more of each group, directly or inherited from its ancestors (GitLab's group approvers). */
  async groupMembers(groupIds: readonly number[], manager?: EntityManager): Promise<Map<number, Set<number>>> {
    const result = new Map<number, Set<number>>();
    const ids = [...new Set(groupIds)];
    if (ids.length === 0) return result;
    const rows = (await this.manager(manager).query(
      `SELECT DISTINCT g.id AS group_id, m.user_id
       FROM namespaces g
       JOIN members m ON m.source_type = 'namespace' AND m.source_id = ANY(g.traversal_ids) AND m.access_level >= $2 AND ${activeMembershipSql('m')}
       JOIN users u ON u.id = m.user_id AND u.state = 'active'
       WHERE g.id = ANY($1) AND g.kind = 'group'`,
      [ids, APPROVER_MIN_LEVEL],
    )) as Array<{ group_id: number; user_id: number }>;
    for (const id of ids) result.set(id, new Set());
    for (const row of rows) result.get(row.group_id)!.add(row.user_id);
    return result;
  }

  /** The ids among `groupIds` of groups that exist and that `viewer` can see. */
  async visibleGroupIds(groupIds: readonly number[], viewer: AccessUser | null, manager?: EntityManager): Promise<Set<number>> {
    const ids = [...new Set(groupIds)];
    if (ids.length === 0) return new Set();
    const visibility = groupVisibilitySql('g', viewer, '$2');
    const rows = (await this.manager(manager).query(
      `SELECT g.id FROM namespaces g WHERE g.id = ANY($1) AND g.kind = 'group'${visibility ? ` AND ${visibility}` : ''}`,
      visibility ? [ids, viewer?.id ?? 0] : [ids],
    )) as Array<{ id: number }>;
    return new Set(rows.map((row) => row.id));
  }

  /** The ids among `userIds` of users with access to the project (members, directly or through its groups). */
  async projectUserIds(projectId: number, userIds: readonly number[], manager?: EntityManager): Promise<number[]> {
    const ids = [...new Set(userIds)];
    if (ids.length === 0) return [];
    const rows = (await this.manager(manager).query(
      `SELECT u.id FROM users u, projects p JOIN namespaces n ON n.id = p.namespace_id
       WHERE p.id = $1 AND u.id = ANY($2)
         AND ((n.kind = 'user' AND n.owner_id = u.id) OR EXISTS (SELECT 1 FROM members m WHERE m.user_id = u.id AND ${activeMembershipSql('m')}
           AND ((m.source_type = 'project' AND m.source_id = p.id) OR (m.source_type = 'namespace' AND m.source_id = ANY(n.traversal_ids)))))`,
      [projectId, ids],
    )) as Array<{ id: number }>;
    const found = new Set(rows.map((row) => row.id));
    return ids.filter((id) => found.has(id));
  }

  async users(ids: readonly number[], manager?: EntityManager): Promise<Map<number, UserEntity>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = await this.manager(manager).findBy(UserEntity, { id: In(unique) });
    return new Map(rows.map((user) => [user.id, user]));
  }

  async groups(ids: readonly number[], manager?: EntityManager): Promise<Map<number, NamespaceEntity>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = await this.manager(manager).findBy(NamespaceEntity, { id: In(unique), kind: 'group' });
    return new Map(rows.map((group) => [group.id, group]));
  }

  async projectRulesById(ids: readonly number[], manager?: EntityManager): Promise<Map<number, ApprovalProjectRuleEntity>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = await this.manager(manager).findBy(ApprovalProjectRuleEntity, { id: In(unique) });
    return new Map(rows.map((rule) => [rule.id, rule]));
  }

  // --- copies of the project rules ------------------------------------------

  /**
   * Serializes the writers of a project's rules and of their copies (a transaction-scoped
   * advisory lock, so that unrelated writes to the project row never wait): project rule
   * changes take it exclusively, merge request rule changes and merge request creation or
   * retargeting share it. Without it, two rule updates in parallel each copied the other's
   * stale rule to the merge requests, renames raced past the name check into the unique index
   * (a 500), and a project rule change could delete a merge request rule created meanwhile.
   */
  async lockProjectRules(tx: EntityManager, projectId: number, mode: 'exclusive' | 'shared'): Promise<void> {
    await tx.query(`SELECT ${mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock'}(hashtext('approval_rules'), $1)`, [projectId]);
  }

  /** `MergeRequestApprovals.targetChanged`: the merge request's rules follow the project rules for its target branch. */
  async targetChanged(tx: EntityManager, mr: MergeRequestEntity): Promise<void> {
    await this.lockProjectRules(tx, mr.projectId, 'shared');
    const state = await tx.findOneBy(MergeRequestApprovalStateEntity, { mergeRequestId: mr.id });
    if (state?.rulesOverwritten) return;
    await this.syncCopies(tx, mr);
  }

  /** After a project rule changed: the open merge requests whose rules were not overwritten follow. */
  async syncProject(tx: EntityManager, projectId: number): Promise<void> {
    const open = (await tx.query(
      `SELECT mr.id FROM merge_requests mr LEFT JOIN merge_request_approval_states s ON s.merge_request_id = mr.id
       WHERE mr.project_id = $1 AND mr.state = 'opened' AND COALESCE(s.rules_overwritten, false) = false`,
      [projectId],
    )) as Array<{ id: number }>;
    if (open.length === 0) return;
    const mrs = await tx.findBy(MergeRequestEntity, { id: In(open.map((row) => row.id)) });
    const rules = await this.projectRules(tx, projectId);
    for (const mr of mrs) await this.syncCopies(tx, mr, rules);
  }

  private async projectRules(tx: EntityManager, projectId: number): Promise<Array<{ rule: ApprovalProjectRuleEntity; branches: string[] }>> {
    const rules = await tx.find(ApprovalProjectRuleEntity, { where: { projectId }, order: { id: 'ASC' } });
    const branchIds = [...new Set(rules.flatMap((rule) => rule.protectedBranchIds))];
    const names = new Map<number, string>();
    if (branchIds.length > 0) for (const pb of await this.protectedBranches.list(projectId, { ids: branchIds }, tx)) names.set(pb.id, pb.name);
    return rules.map((rule) => ({ rule, branches: rule.protectedBranchIds.map((id) => names.get(id)).filter((name): name is string => name !== undefined) }));
  }

  /**
   * The copies of the applicable project rules, updated in place (ids stay), added or removed.
   * A `report_approver` copy requires no approval while no security or coverage report asks for
   * one (GitLab sets its `approvals_required` from the reports; this service has none yet).
   */
  private async syncCopies(tx: EntityManager, mr: MergeRequestEntity, known?: Array<{ rule: ApprovalProjectRuleEntity; branches: string[] }>): Promise<void> {
    const projectRules = known ?? (await this.projectRules(tx, mr.projectId));
    const applicable = projectRules.filter(({ rule, branches }) => {
      // A rule limited to protected branches that no longer exist applies nowhere.
      if (rule.protectedBranchIds.length > 0 && branches.length === 0) return false;
      return ruleAppliesTo(branches, mr.targetBranch, matchesBranch);
    });
    const existing = await tx.find(ApprovalMergeRequestRuleEntity, { where: { mergeRequestId: mr.id } });
    const bySource = new Map(existing.filter((rule) => rule.sourceRuleId !== null).map((rule) => [rule.sourceRuleId!, rule]));
    const keep = new Set<number>();
    for (const { rule } of applicable) {
      const copy = bySource.get(rule.id) ?? tx.create(ApprovalMergeRequestRuleEntity, { mergeRequestId: mr.id, sourceRuleId: rule.id });
      copy.name = rule.name;
      copy.ruleType = rule.ruleType;
      copy.reportType = rule.reportType;
      copy.approvalsRequired = rule.ruleType === 'report_approver' ? 0 : rule.approvalsRequired;
      copy.userIds = [...rule.userIds];
      copy.groupIds = [...rule.groupIds];
      if (copy.id) keep.add(copy.id);
      bySource.set(rule.id, copy);
    }
    const stale = existing.filter((rule) => !keep.has(rule.id));
    if (stale.length > 0) await tx.delete(ApprovalMergeRequestRuleEntity, { id: In(stale.map((rule) => rule.id)) });
    const copies = applicable.map(({ rule }) => bySource.get(rule.id)!);
    if (copies.length > 0) await tx.save(copies);
  }

  // --- state ------------------------------------------------------------------

  /** `MergeRequestApprovals.unapproved`: below PREMIUM nothing is gated. */
  async unapproved(mrs: MergeRequestEntity[], manager?: EntityManager): Promise<Set<number>> {
    const open = mrs.filter((mr) => mr.state === 'opened');
    if (!this.enabled || open.length === 0) return new Set();
    const contexts = await this.contexts(open, manager);
    return new Set(open.filter((mr) => !contexts.get(mr.id)!.state.approved).map((mr) => mr.id));
  }

  /** The approval state of each merge request, in batches (rules, approvals, settings, group members). */
  async contexts(mrs: MergeRequestEntity[], manager?: EntityManager): Promise<Map<number, MergeRequestApprovalContext>> {
    const m = this.manager(manager);
    const ids = mrs.map((mr) => mr.id);
    const result = new Map<number, MergeRequestApprovalContext>();
    if (ids.length === 0) return result;
    const [rules, approvals, states] = await Promise.all([
      m.find(ApprovalMergeRequestRuleEntity, { where: { mergeRequestId: In(ids) }, order: { id: 'ASC' } }),
      m.find(MergeRequestApprovalEntity, { where: { mergeRequestId: In(ids) }, order: { createdAt: 'ASC', userId: 'ASC' } }),
      m.findBy(MergeRequestApprovalStateEntity, { mergeRequestId: In(ids) }),
    ]);
    const settings = new Map<number, ApprovalProjectSettingsEntity>();
    for (const projectId of new Set(mrs.map((mr) => mr.projectId))) settings.set(projectId, await this.settingsOf(projectId, m));
    const members = await this.groupMembers(rules.flatMap((rule) => rule.groupIds), m);
    for (const mr of mrs) {
      const own = rules.filter((rule) => rule.mergeRequestId === mr.id);
      const eligible = new Map(own.map((rule) => [rule.id, new Set([...rule.userIds, ...rule.groupIds.flatMap((id) => [...(members.get(id) ?? [])])])]));
      const mine = approvals.filter((approval) => approval.mergeRequestId === mr.id);
      const state = states.find((row) => row.mergeRequestId === mr.id);
      const projectSettings = settings.get(mr.projectId)!;
      const floor = state?.approvalsBeforeMerge ?? projectSettings.approvalsBeforeMerge;
      const stateRules: StateRule[] = own.map((rule) => ({ id: rule.id, ruleType: rule.ruleType, approvalsRequired: rule.approvalsRequired, eligible: eligible.get(rule.id)! }));
      const excluded = projectSettings.mergeRequestsAuthorApproval ? new Set<number>() : new Set([mr.authorId]);
      result.set(mr.id, {
        mr,
        settings: projectSettings,
        rules: own,
        eligible,
        approvals: mine,
        overwritten: state?.rulesOverwritten ?? false,
        floor,
        state: computeApprovalState(stateRules, mine.map((approval) => approval.userId), floor, excluded),
      });
    }
    return result;
  }

  async context(mr: MergeRequestEntity, manager?: EntityManager): Promise<MergeRequestApprovalContext> {
    return (await this.contexts([mr], manager)).get(mr.id)!;
  }

  /** Marks a merge request's rules as overwritten (a rule was created, changed or removed on it). */
  async markOverwritten(tx: EntityManager, mergeRequestId: number): Promise<void> {
    await tx
      .createQueryBuilder()
      .insert()
      .into(MergeRequestApprovalStateEntity)
      .values({ mergeRequestId, rulesOverwritten: true })
      .orUpdate(['rules_overwritten', 'updated_at'], ['merge_request_id'])
      .execute();
  }

  /** `POST …/approvals` (deprecated): the merge request's own floor on the number of approvals. */
  async setApprovalsBeforeMerge(tx: EntityManager, mergeRequestId: number, approvalsBeforeMerge: number): Promise<void> {
    await tx
      .createQueryBuilder()
      .insert()
      .into(MergeRequestApprovalStateEntity)
      .values({ mergeRequestId, rulesOverwritten: false, approvalsBeforeMerge })
      .orUpdate(['approvals_before_merge', 'updated_at'], ['merge_request_id'])
      .execute();
  }
}
