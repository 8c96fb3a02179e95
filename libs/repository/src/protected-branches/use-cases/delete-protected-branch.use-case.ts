import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import type { ProjectWithNamespace } from '@app/namespaces';
import { DataSource } from 'typeorm';
import { canUnprotectRule } from '../branch-permissions';
import { PROTECTED_BRANCH_EVENTS, protectedBranchEvent } from '../protected-branch.events';
import { presentProtectedBranch } from '../protected-branch.presenter';
import { ProtectedBranchesRepository } from '../protected-branches.repository';
import { ProtectedBranchesService } from '../protected-branches.service';
import { projectRef } from './create-protected-branch.use-case';
import { ruleNotFound } from './update-protected-branch.use-case';

export interface DeleteProtectedBranchCommand {
  project: ProjectWithNamespace;
  name: string;
  actor: { id: number; isAdmin: boolean };
  accessLevel: number;
}

/** `DELETE /projects/:id/protected_branches/:name`: maintainers, within the rule's unprotect entries. */
@Injectable()
export class DeleteProtectedBranchUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly repository: ProtectedBranchesRepository,
    private readonly service: ProtectedBranchesService,
  ) {}

  async execute({ project, name, actor, accessLevel }: DeleteProtectedBranchCommand): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const rule = await this.repository.findByName(project.id, name, tx);
      if (!rule) throw ruleNotFound();
      const user = await this.service.branchUser([rule], [rule.name], actor, tx);
      if (!canUnprotectRule(rule, user, accessLevel, this.service.options)) throw DomainError.forbidden();
      if (!(await this.repository.delete(tx, rule.id))) throw ruleNotFound();
      await this.outbox.append(tx, protectedBranchEvent(PROTECTED_BRANCH_EVENTS.DESTROYED, actor.id, projectRef(project), presentProtectedBranch(rule, true)));
    });
  }
}
