import { DomainError, ErrorCode } from '@app/api';
import { MergeRequestEntity } from '@app/issues';
import { ACCESS_LEVELS } from '@app/namespaces';
import type { AccessUser, ProjectWithNamespace } from '@app/namespaces';
import { ProtectedBranchesRepository } from '@app/repository';
import { EntityManager } from 'typeorm';
import { ApprovalRulesRepository } from '../core/approval-rules.repository';
import { APPROVALS_REQUIRED_MAX } from '../dto/approvals.dto';

/** The caller of a merge request approval endpoint. */
export interface ApprovalActor {
  id: number;
  isAdmin: boolean;
  external: boolean;
  /** Effective access level on the project. */
  accessLevel: number;
}

/** GitLab's bare `not_found!` (a record found by `find`). */
export const notFound = (): DomainError => new DomainError(ErrorCode.NOT_FOUND, '404 Not found', { subject: '' });
export const ruleNotFound = notFound;
export const duplicateName = (): DomainError => DomainError.invalid({ name: ['has already been taken'] });

export const groupIdOf = (project: ProjectWithNamespace): number | null => (project.namespace.kind === 'group' ? project.namespace.id : null);
export const viewerOf = (actor: ApprovalActor): AccessUser => ({ id: actor.id, isAdmin: actor.isAdmin, external: actor.external });

/** Validation of what every rule shares (GitLab's messages). */
export function checkRule(name: string | undefined, approvalsRequired: number | undefined): void {
  const errors: Record<string, string[]> = {};
  if (name !== undefined && name.trim() === '') errors.name = ["can't be blank"];
  if (approvalsRequired !== undefined && approvalsRequired > APPROVALS_REQUIRED_MAX)
    errors.approvals_required = [`must be less than or equal to ${APPROVALS_REQUIRED_MAX}`];
  if (Object.keys(errors).length) throw DomainError.invalid(errors);
}

/** The merge request of the project with this iid (404 `Merge Request Not Found` otherwise), optionally locked for update. */
export async function requireMergeRequest(
  repository: ApprovalRulesRepository,
  manager: EntityManager | undefined,
  projectId: number,
  iid: number,
  lock = false,
): Promise<MergeRequestEntity> {
  const mr = await repository.findMergeRequest(projectId, iid, { lock }, manager);
  if (!mr) throw DomainError.notFound('Merge Request');
  return mr;
}

/**
 * `update_approvers` on a merge request: the author or a Developer or more, and only while
 * `disable_overriding_approvers_per_merge_request` is off; else 403.
 */
export async function authorizeApproversUpdate(
  repository: ApprovalRulesRepository,
  tx: EntityManager,
  mr: MergeRequestEntity,
  actor: ApprovalActor,
): Promise<void> {
  const canUpdate = actor.isAdmin || actor.accessLevel >= ACCESS_LEVELS.DEVELOPER || mr.authorId === actor.id;
  const settings = await repository.settingsOf(mr.projectId, tx);
  if (!canUpdate || settings.disableOverridingApproversPerMergeRequest) throw DomainError.forbidden();
}

/**
 * The approvers a rule keeps: users with access to the project (others are dropped, as GitLab
 * filters them), groups the caller can see, plus (on update) the hidden groups it already had
 * unless `remove_hidden_groups`.
 */
export async function ruleApprovers(
  repository: ApprovalRulesRepository,
  tx: EntityManager,
  projectId: number,
  viewer: AccessUser,
  input: { user_ids?: number[]; group_ids?: number[]; remove_hidden_groups?: boolean },
  current?: { userIds: number[]; groupIds: number[] },
): Promise<{ userIds: number[]; groupIds: number[] }> {
  const userIds = input.user_ids !== undefined ? await repository.projectUserIds(projectId, input.user_ids, tx) : (current?.userIds ?? []);
  let groupIds = current?.groupIds ?? [];
  if (input.group_ids !== undefined) {
    const visible = await repository.visibleGroupIds(input.group_ids, viewer, tx);
    groupIds = [...new Set(input.group_ids)].filter((id) => visible.has(id));
    if (current && !input.remove_hidden_groups) {
      const stillVisible = await repository.visibleGroupIds(current.groupIds, viewer, tx);
      const existing = await repository.groups(current.groupIds, tx);
      groupIds.push(...current.groupIds.filter((id) => existing.has(id) && !stillVisible.has(id) && !groupIds.includes(id)));
    }
  }
  return { userIds, groupIds };
}

/** The ids that are protected branches of the project (others are ignored, as GitLab does). */
export async function protectedBranchIds(
  protectedBranches: ProtectedBranchesRepository,
  tx: EntityManager,
  projectId: number,
  ids: number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const found = new Set((await protectedBranches.list(projectId, { ids }, tx)).map((pb) => pb.id));
  return [...new Set(ids)].filter((id) => found.has(id));
}
