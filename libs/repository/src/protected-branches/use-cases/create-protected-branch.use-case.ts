import { Injectable } from '@nestjs/common';
import { DomainError, tierAtLeast } from '@app/api';
import { AppConfig } from '@app/config';
import { OutboxService } from '@app/messaging';
import { ACCESS_LEVELS } from '@app/namespaces';
import type { ProjectWithNamespace } from '@app/namespaces';
import { DataSource } from 'typeorm';
import type { ProtectedBranchAction } from '../branch-permissions';
import type { CreateProtectedBranchDto, GrantItemDto } from '../dto/protected-branch.dto';
import { PROTECTED_BRANCH_EVENTS, protectedBranchEvent } from '../protected-branch.events';
import { presentProtectedBranch } from '../protected-branch.presenter';
import { NewGrant, ProtectedBranchesRepository, ProtectedBranchRecord } from '../protected-branches.repository';
import { GrantMembershipChecker, grantOfItem, uniqueGrants } from './grant-items';

export interface CreateProtectedBranchCommand {
  project: ProjectWithNamespace;
  attributes: CreateProtectedBranchDto;
  actorId: number;
}

const ACTIONS: ProtectedBranchAction[] = ['push', 'merge', 'unprotect'];

/**
 * `POST /projects/:id/protected_branches`. For each action, the role entry is
 * `<action>_access_level` when given, else Maintainers (40) unless `allowed_to_<action>` items
 * are given (PREMIUM), as GitLab does. On the free tier the PREMIUM attributes
 * (`allowed_to_*`, `code_owner_approval_required`) are ignored.
 */
@Injectable()
export class CreateProtectedBranchUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly repository: ProtectedBranchesRepository,
    private readonly membership: GrantMembershipChecker,
    private readonly config: AppConfig,
  ) {}

  async execute({ project, attributes, actorId }: CreateProtectedBranchCommand): Promise<ProtectedBranchRecord> {
    const premium = tierAtLeast(this.config.tier, 'premium');
    const grants: NewGrant[] = [];
    for (const action of ACTIONS) {
      const level = attributes[`${action}_access_level`];
      const items: GrantItemDto[] = premium ? (attributes[`allowed_to_${action}`] ?? []) : [];
      if (level !== undefined) grants.push({ action, accessLevel: level, userId: null, groupId: null });
      else if (items.length === 0) grants.push({ action, accessLevel: ACCESS_LEVELS.MAINTAINER, userId: null, groupId: null });
      for (const item of items) grants.push(grantOfItem(action, item));
    }
    const entries = uniqueGrants(grants);

    return this.dataSource.transaction(async (tx) => {
      await this.membership.check(tx, project, entries);
      const id = await this.repository.insert(
        tx,
        {
          projectId: project.id,
          name: attributes.name,
          allowForcePush: attributes.allow_force_push ?? false,
          codeOwnerApprovalRequired: premium ? (attributes.code_owner_approval_required ?? false) : false,
        },
        entries,
      );
      if (id === null) throw DomainError.conflict(`Protected branch '${attributes.name}' already exists`);
      const [rule] = await this.repository.list(project.id, { ids: [id] }, tx);
      await this.outbox.append(tx, protectedBranchEvent(PROTECTED_BRANCH_EVENTS.CREATED, actorId, projectRef(project), presentProtectedBranch(rule, true)));
      return rule;
    });
  }
}

export const projectRef = (project: ProjectWithNamespace): { id: number; groupId: number | null } => ({
  id: project.id,
  groupId: project.namespace.kind === 'group' ? project.namespace.id : null,
});
