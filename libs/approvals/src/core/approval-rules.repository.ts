import { Injectable } from '@nestjs/common';
import { UserEntity } from '@app/identity';
import { MergeRequestEntity } from '@app/issues';
import { NamespaceEntity, restrictToActiveMemberships, restrictToVisibleGroups } from '@app/namespaces';
import type { AccessUser } from '@app/namespaces';
import { DataSource, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import {
  ApprovalMergeRequestRuleEntity,
  ApprovalProjectRuleEntity,
  ApprovalProjectSettingsEntity,
  MergeRequestApprovalEntity,
  MergeRequestApprovalStateEntity,
} from '../entities';

/** The rows the approval state of some merge requests is computed from. */
export interface ApprovalStateRows {
  rules: ApprovalMergeRequestRuleEntity[];
  approvals: MergeRequestApprovalEntity[];
  states: MergeRequestApprovalStateEntity[];
}

/** The fields of a new project rule. */
export type NewProjectRule = Pick<
  ApprovalProjectRuleEntity,
  'projectId' | 'name' | 'ruleType' | 'reportType' | 'approvalsRequired' | 'userIds' | 'groupIds' | 'protectedBranchIds'
>;

/** The fields of a new merge request rule. */
export type NewMergeRequestRule = Pick<
  ApprovalMergeRequestRuleEntity,
  'mergeRequestId' | 'name' | 'ruleType' | 'reportType' | 'approvalsRequired' | 'userIds' | 'groupIds' | 'sourceRuleId'
>;

/**
 * Every statement of libs/approvals: project configuration and rules, merge request rules and
 * their state, approvals, and the lookups of users, groups and memberships they need. Reads take
 * an optional manager (a transaction's, else the data source's); writes take the transaction.
 */
@Injectable()
export class ApprovalRulesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  // --- project configuration ------------------------------------------------

  /** The project's approval configuration (an unsaved row with GitLab's defaults when never configured), with the project's `approvals_before_merge`. */
  async settingsOf(projectId: number, manager?: EntityManager): Promise<ApprovalProjectSettingsEntity> {
    const repo = this.manager(manager).getRepository(ApprovalProjectSettingsEntity);
    const settings =
      (await repo.findOneBy({ projectId })) ??
      repo.create({
        projectId,
        resetApprovalsOnPush: true,
        disableOverridingApproversPerMergeRequest: false,
        mergeRequestsAuthorApproval: false,
        mergeRequestsDisableCommittersApproval: false,
        requirePasswordToApprove: false,
      });
    const [row] = (await this.manager(manager).query(`SELECT settings->'approvals_before_merge' AS value FROM projects WHERE id = $1`, [projectId])) as Array<{
      value: unknown;
    }>;
    settings.approvalsBeforeMerge = typeof row?.value === 'number' ? row.value : 0;
    return settings;
  }

  /** Saves the configuration row; `approvalsBeforeMerge` (not a column) is kept on the answer. */
  async saveSettings(tx: EntityManager, settings: ApprovalProjectSettingsEntity): Promise<ApprovalProjectSettingsEntity> {
    const approvalsBeforeMerge = settings.approvalsBeforeMerge;
    const saved = await tx.save(settings);
    saved.approvalsBeforeMerge = approvalsBeforeMerge;
    return saved;
  }

  /** The project attribute `approvals_before_merge` (the one `PUT /projects/:id` sets too). */
  async setProjectApprovalsBeforeMerge(tx: EntityManager, projectId: number, value: number): Promise<void> {
    await tx.query(`UPDATE projects SET settings = jsonb_set(COALESCE(settings, '{}'::jsonb), '{approvals_before_merge}', to_jsonb($2::int)) WHERE id = $1`, [
      projectId,
      value,
    ]);
  }

  // --- users, groups, memberships --------------------------------------------

  /** Active members with at least `minLevel` of each group, directly or inherited from its ancestors (GitLab's group approvers). */
  async groupMembers(groupIds: readonly number[], minLevel: number, manager?: EntityManager): Promise<Map<number, Set<number>>> {
    const result = new Map<number, Set<number>>();
    const ids = [...new Set(groupIds)];
    if (ids.length === 0) return result;
    const qb = this.manager(manager)
      .createQueryBuilder()
      .select('g.id', 'group_id')
      .addSelect('m.user_id', 'user_id')
      .distinct(true)
      .from('namespaces', 'g')
      .innerJoin('members', 'm', `m.source_type = 'namespace' AND m.source_id = ANY(g.traversal_ids) AND m.access_level >= :minLevel`, { minLevel })
      .innerJoin('users', 'u', `u.id = m.user_id AND u.state = 'active'`)
      .where(`g.id = ANY(:ids) AND g.kind = 'group'`, { ids });
    const rows = await restrictToActiveMemberships(qb, 'm').getRawMany<{ group_id: number; user_id: number }>();
    for (const id of ids) result.set(id, new Set());
    for (const row of rows) result.get(row.group_id)!.add(row.user_id);
    return result;
  }

  /** The ids among `groupIds` of groups that exist and that `viewer` can see. */
  async visibleGroupIds(groupIds: readonly number[], viewer: AccessUser | null, manager?: EntityManager): Promise<Set<number>> {
    const ids = [...new Set(groupIds)];
    if (ids.length === 0) return new Set();
    const qb = this.manager(manager).createQueryBuilder().select('g.id', 'id').from('namespaces', 'g').where(`g.id = ANY(:ids) AND g.kind = 'group'`, { ids });
    const rows = await restrictToVisibleGroups(qb, 'g', viewer).getRawMany<{ id: number }>();
    return new Set(rows.map((row) => row.id));
  }

  /** The ids among `userIds` of users with access to the project (members, directly or through its groups), in the given order. */
  async projectUserIds(projectId: number, userIds: readonly number[], manager?: EntityManager): Promise<number[]> {
    const ids = [...new Set(userIds)];
    if (ids.length === 0) return [];
    const qb = this.manager(manager)
      .createQueryBuilder()
      .select('u.id', 'id')
      .from('users', 'u')
      .addFrom('projects', 'p')
      .innerJoin('namespaces', 'n', 'n.id = p.namespace_id');
    const membership = restrictToActiveMemberships(qb.subQuery().select('1').from('members', 'm').where('m.user_id = u.id'), 'm').andWhere(
      `((m.source_type = 'project' AND m.source_id = p.id) OR (m.source_type = 'namespace' AND m.source_id = ANY(n.traversal_ids)))`,
    );
    const rows = await qb
      .where('p.id = :projectId AND u.id = ANY(:ids)', { projectId, ids })
      .andWhere(`((n.kind = 'user' AND n.owner_id = u.id) OR EXISTS ${membership.getQuery()})`)
      .getRawMany<{ id: number }>();
    const found = new Set(rows.map((row) => row.id));
    return ids.filter((id) => found.has(id));
  }

  /** The ids of the users whose e-mail is one of `emails` (lower-case). */
  async userIdsByEmails(emails: readonly string[], manager?: EntityManager): Promise<Set<number>> {
    if (emails.length === 0) return new Set();
    const rows = (await this.manager(manager).query('SELECT id FROM users WHERE lower(email) = ANY($1)', [emails])) as Array<{ id: number }>;
    return new Set(rows.map((row) => row.id));
  }

  /** The password digest of a user (a column never selected by default). */
  async passwordDigestOf(userId: number, manager?: EntityManager): Promise<string | null | undefined> {
    const user = await this.manager(manager).createQueryBuilder(UserEntity, 'u').addSelect('u.passwordDigest').where('u.id = :id', { id: userId }).getOne();
    return user?.passwordDigest;
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

  // --- locks and merge requests -----------------------------------------------

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

  /** A merge request of the project by iid, optionally locked for update. */
  async findMergeRequest(projectId: number, iid: number, options: { lock?: boolean } = {}, manager?: EntityManager): Promise<MergeRequestEntity | null> {
    return this.manager(manager).findOne(MergeRequestEntity, {
      where: { projectId, iid },
      ...(options.lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /** The open merge requests of the project whose rules were not overwritten (they follow the project rules). */
  async openMergeRequestsFollowingProjectRules(tx: EntityManager, projectId: number): Promise<MergeRequestEntity[]> {
    const open = (await tx.query(
      `SELECT mr.id FROM merge_requests mr LEFT JOIN merge_request_approval_states s ON s.merge_request_id = mr.id
       WHERE mr.project_id = $1 AND mr.state = 'opened' AND COALESCE(s.rules_overwritten, false) = false`,
      [projectId],
    )) as Array<{ id: number }>;
    if (open.length === 0) return [];
    return tx.findBy(MergeRequestEntity, { id: In(open.map((row) => row.id)) });
  }

  // --- approval state -----------------------------------------------------------

  /** The rules (by id), approvals (in approval order) and state rows of the merge requests. */
  async stateRows(mergeRequestIds: readonly number[], manager?: EntityManager): Promise<ApprovalStateRows> {
    const m = this.manager(manager);
    const ids = [...mergeRequestIds];
    const [rules, approvals, states] = await Promise.all([
      m.find(ApprovalMergeRequestRuleEntity, { where: { mergeRequestId: In(ids) }, order: { id: 'ASC' } }),
      m.find(MergeRequestApprovalEntity, { where: { mergeRequestId: In(ids) }, order: { createdAt: 'ASC', userId: 'ASC' } }),
      m.findBy(MergeRequestApprovalStateEntity, { mergeRequestId: In(ids) }),
    ]);
    return { rules, approvals, states };
  }

  async rulesOverwritten(tx: EntityManager, mergeRequestId: number): Promise<boolean> {
    const state = await tx.findOneBy(MergeRequestApprovalStateEntity, { mergeRequestId });
    return state?.rulesOverwritten ?? false;
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

  // --- project rules ------------------------------------------------------------

  /** The project's rules, oldest first (for offset pagination). */
  projectRulesQuery(projectId: number): SelectQueryBuilder<ApprovalProjectRuleEntity> {
    return this.dataSource
      .getRepository(ApprovalProjectRuleEntity)
      .createQueryBuilder('rule')
      .where('rule.project_id = :projectId', { projectId })
      .orderBy('rule.id', 'ASC');
  }

  /** The project's rules, oldest first. */
  async projectRules(tx: EntityManager, projectId: number): Promise<ApprovalProjectRuleEntity[]> {
    return tx.find(ApprovalProjectRuleEntity, { where: { projectId }, order: { id: 'ASC' } });
  }

  /** A rule of the project, optionally locked for update. */
  async findProjectRule(projectId: number, id: number, options: { lock?: boolean } = {}, manager?: EntityManager): Promise<ApprovalProjectRuleEntity | null> {
    return this.manager(manager).findOne(ApprovalProjectRuleEntity, {
      where: { id, projectId },
      ...(options.lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  async projectRulesById(ids: readonly number[], manager?: EntityManager): Promise<Map<number, ApprovalProjectRuleEntity>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = await this.manager(manager).findBy(ApprovalProjectRuleEntity, { id: In(unique) });
    return new Map(rows.map((rule) => [rule.id, rule]));
  }

  async projectRuleNameTaken(tx: EntityManager, projectId: number, name: string): Promise<boolean> {
    return tx.existsBy(ApprovalProjectRuleEntity, { projectId, name });
  }

  async hasAnyApproverRule(tx: EntityManager, projectId: number): Promise<boolean> {
    return tx.existsBy(ApprovalProjectRuleEntity, { projectId, ruleType: 'any_approver' });
  }

  async insertProjectRule(tx: EntityManager, rule: NewProjectRule): Promise<ApprovalProjectRuleEntity> {
    return tx.save(tx.create(ApprovalProjectRuleEntity, rule));
  }

  async saveProjectRule(tx: EntityManager, rule: ApprovalProjectRuleEntity): Promise<ApprovalProjectRuleEntity> {
    return tx.save(rule);
  }

  async deleteProjectRule(tx: EntityManager, id: number): Promise<void> {
    await tx.delete(ApprovalProjectRuleEntity, { id });
  }

  // --- merge request rules ------------------------------------------------------

  async mergeRequestRules(tx: EntityManager, mergeRequestId: number): Promise<ApprovalMergeRequestRuleEntity[]> {
    return tx.find(ApprovalMergeRequestRuleEntity, { where: { mergeRequestId } });
  }

  async findMergeRequestRule(tx: EntityManager, mergeRequestId: number, id: number): Promise<ApprovalMergeRequestRuleEntity | null> {
    return tx.findOneBy(ApprovalMergeRequestRuleEntity, { id, mergeRequestId });
  }

  async mergeRequestRuleNameTaken(tx: EntityManager, mergeRequestId: number, name: string): Promise<boolean> {
    return tx.existsBy(ApprovalMergeRequestRuleEntity, { mergeRequestId, name });
  }

  async insertMergeRequestRule(tx: EntityManager, rule: NewMergeRequestRule): Promise<ApprovalMergeRequestRuleEntity> {
    return tx.save(tx.create(ApprovalMergeRequestRuleEntity, rule));
  }

  /** Inserts the new rules and updates the others (in one call). */
  async saveMergeRequestRules(tx: EntityManager, rules: ApprovalMergeRequestRuleEntity[]): Promise<ApprovalMergeRequestRuleEntity[]> {
    if (rules.length === 0) return [];
    return tx.save(rules);
  }

  async deleteMergeRequestRules(tx: EntityManager, ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await tx.delete(ApprovalMergeRequestRuleEntity, { id: In([...ids]) });
  }

  // --- approvals ------------------------------------------------------------------

  async insertApproval(tx: EntityManager, mergeRequestId: number, userId: number): Promise<void> {
    await tx.insert(MergeRequestApprovalEntity, { mergeRequestId, userId });
  }

  /** Removes one user's approval; false when there was none. */
  async deleteApproval(tx: EntityManager, mergeRequestId: number, userId: number): Promise<boolean> {
    const result = await tx.delete(MergeRequestApprovalEntity, { mergeRequestId, userId });
    return (result.affected ?? 0) > 0;
  }

  async deleteApprovals(tx: EntityManager, mergeRequestId: number): Promise<void> {
    await tx.delete(MergeRequestApprovalEntity, { mergeRequestId });
  }

  /**
   * `reset_approvals_on_push`: removes the approvals given before `before` on the open merge
   * requests of the project whose source branch is `branch`, where the project resets them (the
   * default).
   */
  async deleteApprovalsOnPush(push: { projectId: number; branch: string; before: Date }): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM merge_request_approvals a
       USING merge_requests mr
       LEFT JOIN approval_project_settings s ON s.project_id = mr.project_id
       WHERE a.merge_request_id = mr.id AND mr.project_id = $1 AND mr.source_branch = $2 AND mr.state = 'opened'
         AND COALESCE(s.reset_approvals_on_push, true) AND a.created_at < $3`,
      [push.projectId, push.branch, push.before],
    );
  }
}
