import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApprovalRulesRepository } from '../../core/approval-rules.repository';
import { ruleNotFound } from '../approval-commands';
import { SyncRuleCopiesUseCase } from '../sync-rule-copies/sync-rule-copies.use-case';

/** `DELETE /projects/:id/approval_rules/:approval_rule_id`: copies on merge requests that were not overwritten go too. */
@Injectable()
export class DeleteProjectRuleUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: ApprovalRulesRepository,
    private readonly syncRuleCopies: SyncRuleCopiesUseCase,
  ) {}

  execute(projectId: number, ruleId: number): Promise<void> {
    return this.dataSource.transaction(async (tx) => {
      await this.repository.lockProjectRules(tx, projectId, 'exclusive');
      const rule = await this.repository.findProjectRule(projectId, ruleId, { lock: true }, tx);
      if (!rule) throw ruleNotFound();
      await this.repository.deleteProjectRule(tx, rule.id);
      await this.syncRuleCopies.execute(tx, { projectId });
    });
  }
}
