import { DbInt, EmptyToNull, IsOptionalNotNull, Required, ToBoolean, ToInt, ToIntArray, ToStringArray } from '@app/api';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ISSUE_TYPES, IssueType } from '../entities/issue.entity';

export const ISSUE_TITLE_MAX = 255;
export const DESCRIPTION_MAX = 1_048_576;

class IssueAttributesDto {
  @IsOptional() @IsString() @MaxLength(DESCRIPTION_MAX) description?: string;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() confidential?: boolean;
  @IsOptionalNotNull() @IsIn(ISSUE_TYPES) issue_type?: IssueType;
  @IsOptionalNotNull() @ToStringArray() @IsString({ each: true }) labels?: string[];
  @IsOptional() @ToIntArray() @DbInt({ each: true }) assignee_ids?: number[];
  @IsOptional() @ToInt() @DbInt() assignee_id?: number;
  /** 0 or null removes the milestone. */
  @IsOptional() @EmptyToNull() @ToInt() @DbInt() milestone_id?: number | null;
  /** PREMIUM. */
  @IsOptional() @EmptyToNull() @ToInt() @DbInt() iteration_id?: number | null;
  /** PREMIUM; null removes the weight. */
  @IsOptional() @EmptyToNull() @ToInt() @DbInt() weight?: number | null;
}

export class CreateIssueDto extends IssueAttributesDto {
  @Required() @IsString() @MaxLength(ISSUE_TITLE_MAX) title: string;
}

export class UpdateIssueDto extends IssueAttributesDto {
  @IsOptionalNotNull() @IsString() @MaxLength(ISSUE_TITLE_MAX) title?: string;
  @IsOptional() @IsIn(['close', 'reopen']) state_event?: 'close' | 'reopen';
}

export class ListIssuesDto {
  @IsOptional() @IsIn(['opened', 'closed', 'all']) state?: 'opened' | 'closed' | 'all';
  @IsOptional() @IsIn(['created_by_me', 'assigned_to_me', 'all']) scope?: 'created_by_me' | 'assigned_to_me' | 'all';
  @IsOptional() @ToStringArray() @IsString({ each: true }) labels?: string[];
  @IsOptional() @IsString() milestone?: string;
  @IsOptional() @IsIn(ISSUE_TYPES) issue_type?: IssueType;
  @IsOptional() @ToBoolean() @IsBoolean() confidential?: boolean;
  @IsOptional() @ToIntArray() @DbInt({ each: true }) iids?: number[];
  @IsOptional() @ToInt() @DbInt() author_id?: number;
  @IsOptional() @ToInt() @DbInt() assignee_id?: number;
  @IsOptional() @IsString() search?: string;
  @IsOptional() @IsIn(['created_at', 'updated_at']) order_by?: 'created_at' | 'updated_at';
  @IsOptional() @IsIn(['asc', 'desc']) sort?: 'asc' | 'desc';
}
