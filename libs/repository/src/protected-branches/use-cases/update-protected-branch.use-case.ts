import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode } from '@app/api';
import { OutboxService } from '@app/messaging';
import type { ProjectWithNamespace } from '@app/namespaces';
import { DataSource } from 'typeorm';
import { BranchUser, canUnprotectRule, ProtectedBranchAction } from '../branch-permissions';
import type { GrantItemDto, UpdateProtectedBranchDto } from '../dto/protected-branch.dto';
import { PROTECTED_BRANCH_EVENTS, protectedBranchEvent } from '../protected-branch.events';
import { presentProtectedBranch } from '../protected-branch.presenter';
import { NewGrant, ProtectedBranchesRepository, ProtectedBranchGrantRecord, ProtectedBranchRecord } from '../protected-branches.repository';
import { ProtectedBranchesService } from '../protected-branches.service';
import { projectRef } from './create-protected-branch.use-case';
import { GrantMembershipChecker, grantOfItem } from './grant-items';

export interface UpdateProtectedBranchCommand {
  project: ProjectWithNamespace;
  name: string;
  attributes: UpdateProtectedBranchDto;
  actor: { id: number; isAdmin: boolean };
  accessLevel: number;
}

const ACTIONS: ProtectedBranchAction[] = ['push', 'merge', 'unprotect'];

/** `404 Not found`, GitLab's answer for an unknown rule or entry. */
export const ruleNotFound = (): DomainError => new DomainError(ErrorCode.NOT_FOUND, '404 Not found');

const grantsOf = (rule: ProtectedBranchRecord, action: ProtectedBranchAction): ProtectedBranchGrantRecord[] =>
  action === 'push' ? rule.pushAccessLevels : action === 'merge' ? rule.mergeAccessLevels : rule.unprotectAccessLevels;

/**
 * `PATCH /projects/:id/protected_branches/:name` (PREMIUM): `allow_force_push`,
 * `code_owner_approval_required`, and the `allowed_to_*` items: `{id, _destroy: true}` removes
 * an entry, `{id, access_level|user_id|group_id}` replaces it, an item without `id` adds one.
 * The caller must be allowed to unprotect the rule.
 */
@Injectable()
export class UpdateProtectedBranchUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly repository: ProtectedBranchesRepository,
    private readonly service: ProtectedBranchesService,
    private readonly membership: GrantMembershipChecker,
  ) {}

  async execute({ project, name, attributes, actor, accessLevel }: UpdateProtectedBranchCommand): Promise<ProtectedBranchRecord> {
    return this.dataSource.transaction(async (tx) => {
      const rule = await this.repository.findByName(project.id, name, tx);
      if (!rule) throw ruleNotFound();
      const user: BranchUser | null = await this.service.branchUser([rule], [rule.name], actor, tx);
      if (!canUnprotectRule(rule, user, accessLevel, this.service.options)) throw DomainError.forbidden();

      const removed: number[] = [];
      const added: NewGrant[] = [];
      for (const action of ACTIONS) {
        const existing = grantsOf(rule, action);
        const items: GrantItemDto[] = attributes[`allowed_to_${action}`] ?? [];
        for (const item of items) {
          if (item.id !== undefined) {
            if (!existing.some((grant) => grant.id === item.id)) throw ruleNotFound();
            removed.push(item.id);
            if (item._destroy) continue;
          } else if (item._destroy) {
            throw DomainError.invalid({ [`allowed_to_${action}`]: ['_destroy needs the id of the entry'] });
          }
          const grant = grantOfItem(action, item);
          const remaining = existing.filter((entry) => !removed.includes(entry.id));
          const duplicate = [...remaining, ...added.filter((entry) => entry.action === action)].some(
            (entry) => entry.accessLevel === grant.accessLevel && entry.userId === grant.userId && entry.groupId === grant.groupId,
          );
          if (!duplicate) added.push(grant);
        }
      }
      await this.membership.check(tx, project, added);
      await this.repository.removeGrants(tx, rule.id, removed);
      await this.repository.addGrants(tx, rule.id, added);
      const changes: { allowForcePush?: boolean; codeOwnerApprovalRequired?: boolean } = {};
      if (attributes.allow_force_push !== undefined) changes.allowForcePush = attributes.allow_force_push;
      if (attributes.code_owner_approval_required !== undefined) changes.codeOwnerApprovalRequired = attributes.code_owner_approval_required;
      await this.repository.update(tx, rule.id, changes);
      const [updated] = await this.repository.list(project.id, { ids: [rule.id] }, tx);
      await this.outbox.append(tx, protectedBranchEvent(PROTECTED_BRANCH_EVENTS.UPDATED, actor.id, projectRef(project), presentProtectedBranch(updated, true)));
      return updated;
    });
  }
}
