import { Injectable } from '@nestjs/common';
import { MergeRequestEntity } from '@app/issues';
import { matchesBranch, ProtectedBranchesRepository } from '@app/repository';
import { EntityManager } from 'typeorm';
import { planRuleCopies, ProjectRuleWithBranches } from '../../core/approval-rule-copies';
import { ApprovalRulesRepository } from '../../core/approval-rules.repository';

/**
 * Which merge requests follow the project rules: one that was opened or retargeted (it takes
 * the shared project rules lock, and is left alone once its rules were overwritten), or every
 * open one of a project whose rules changed (the caller holds the exclusive lock).
 */
export type SyncRuleCopiesCommand = { mergeRequest: MergeRequestEntity } | { projectId: number };

/** The copies of the applicable project rules on merge requests, updated in place (ids stay), added or removed. */
@Injectable()
export class SyncRuleCopiesUseCase {
  constructor(
    private readonly repository: ApprovalRulesRepository,
    private readonly protectedBranches: ProtectedBranchesRepository,
  ) {}

  async execute(tx: EntityManager, command: SyncRuleCopiesCommand): Promise<void> {
    if ('mergeRequest' in command) {
      const mr = command.mergeRequest;
      await this.repository.lockProjectRules(tx, mr.projectId, 'shared');
      if (await this.repository.rulesOverwritten(tx, mr.id)) return;
      await this.syncCopies(tx, mr, await this.projectRules(tx, mr.projectId));
      return;
    }
    const mrs = await this.repository.openMergeRequestsFollowingProjectRules(tx, command.projectId);
    if (mrs.length === 0) return;
    const rules = await this.projectRules(tx, command.projectId);
    for (const mr of mrs) await this.syncCopies(tx, mr, rules);
  }

  private async projectRules(tx: EntityManager, projectId: number): Promise<ProjectRuleWithBranches[]> {
    const rules = await this.repository.projectRules(tx, projectId);
    const branchIds = [...new Set(rules.flatMap((rule) => rule.protectedBranchIds))];
    const names = new Map<number, string>();
    if (branchIds.length > 0) for (const pb of await this.protectedBranches.list(projectId, { ids: branchIds }, tx)) names.set(pb.id, pb.name);
    return rules.map((rule) => ({ rule, branches: rule.protectedBranchIds.map((id) => names.get(id)).filter((name): name is string => name !== undefined) }));
  }

  private async syncCopies(tx: EntityManager, mr: MergeRequestEntity, projectRules: ProjectRuleWithBranches[]): Promise<void> {
    const plan = planRuleCopies(mr, projectRules, await this.repository.mergeRequestRules(tx, mr.id), matchesBranch);
    await this.repository.deleteMergeRequestRules(tx, plan.stale);
    await this.repository.saveMergeRequestRules(tx, plan.copies);
  }
}
