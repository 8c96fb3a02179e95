import { ApprovalMergeRequestRuleEntity } from './approval-merge-request-rule.entity';
import { ApprovalProjectRuleEntity } from './approval-project-rule.entity';
import { ApprovalProjectSettingsEntity } from './approval-project-settings.entity';
import { MergeRequestApprovalStateEntity } from './merge-request-approval-state.entity';
import { MergeRequestApprovalEntity } from './merge-request-approval.entity';

export {
  ApprovalMergeRequestRuleEntity,
  ApprovalProjectRuleEntity,
  ApprovalProjectSettingsEntity,
  MergeRequestApprovalEntity,
  MergeRequestApprovalStateEntity,
};
export type { ApprovalRuleType } from './approval-project-rule.entity';

/** The entities of the approvals library, listed in the data source's `ENTITIES`. */
export const APPROVALS_ENTITIES = [
  ApprovalProjectSettingsEntity,
  ApprovalProjectRuleEntity,
  ApprovalMergeRequestRuleEntity,
  MergeRequestApprovalStateEntity,
  MergeRequestApprovalEntity,
];
