import { IsArray, IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { DbInt, IsOptionalNotNull, Required, ToBoolean, ToInt, ToIntArray } from '@app/api';

export const RULE_NAME_MAX = 255;
/** GitLab's bound on `approvals_required` of a rule. */
export const APPROVALS_REQUIRED_MAX = 100;
export const CREATABLE_RULE_TYPES = ['regular', 'any_approver', 'report_approver'] as const;
export const REPORT_TYPES = ['license_scanning', 'code_coverage'] as const;

/** `POST /projects/:id/approvals`: only the given attributes change. */
export class UpdateProjectApprovalsDto {
  @IsOptionalNotNull() @ToInt() @DbInt() approvals_before_merge?: number;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() reset_approvals_on_push?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() disable_overriding_approvers_per_merge_request?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() merge_requests_author_approval?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() merge_requests_disable_committers_approval?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() require_password_to_approve?: boolean;
}

/** The approvers of a rule: user and group ids. */
class RuleApproversDto {
  @IsOptional() @ToIntArray() @IsArray() @DbInt({ each: true }) user_ids?: number[];
  @IsOptional() @ToIntArray() @IsArray() @DbInt({ each: true }) group_ids?: number[];
  /** PUT: groups the caller cannot see are kept unless this is true. */
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() remove_hidden_groups?: boolean;
}

/** `POST /projects/:id/approval_rules`. */
export class CreateProjectRuleDto extends RuleApproversDto {
  @Required() @IsString() @MaxLength(RULE_NAME_MAX) name: string;
  @Required() @ToInt() @DbInt() approvals_required: number;
  @IsOptionalNotNull() @IsString() @IsIn(CREATABLE_RULE_TYPES) rule_type?: (typeof CREATABLE_RULE_TYPES)[number];
  @IsOptional() @IsString() @IsIn(REPORT_TYPES) report_type?: (typeof REPORT_TYPES)[number];
  @IsOptional() @ToIntArray() @IsArray() @DbInt({ each: true }) protected_branch_ids?: number[];
}

/** `PUT /projects/:id/approval_rules/:approval_rule_id` (`name` and `approvals_required` required, as the spec says): approvers not listed are removed. */
export class UpdateProjectRuleDto extends RuleApproversDto {
  @Required() @IsString() @MaxLength(RULE_NAME_MAX) name: string;
  @Required() @ToInt() @DbInt() approvals_required: number;
  @IsOptional() @ToIntArray() @IsArray() @DbInt({ each: true }) protected_branch_ids?: number[];
}

/** `POST …/merge_requests/:iid/approval_rules`. */
export class CreateMergeRequestRuleDto extends RuleApproversDto {
  @Required() @IsString() @MaxLength(RULE_NAME_MAX) name: string;
  @Required() @ToInt() @DbInt() approvals_required: number;
  @IsOptional() @ToInt() @DbInt() approval_project_rule_id?: number;
}

/** `PUT …/merge_requests/:iid/approval_rules/:approval_rule_id`. */
export class UpdateMergeRequestRuleDto extends RuleApproversDto {
  @IsOptionalNotNull() @IsString() @MaxLength(RULE_NAME_MAX) name?: string;
  @IsOptionalNotNull() @ToInt() @DbInt() approvals_required?: number;
}

/** `POST …/merge_requests/:iid/approvals` (deprecated). */
export class SetApprovalsRequiredDto {
  @Required() @ToInt() @DbInt() approvals_required: number;
}

/** `POST …/merge_requests/:iid/approve`. */
export class ApproveDto {
  @IsOptional() @IsString() @MaxLength(64) sha?: string;
  @IsOptional() @IsString() @MaxLength(1024) approval_password?: string;
}
