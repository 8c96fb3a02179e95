import { DbInt, EmptyToNull, IsOptionalNotNull, Required, ToInt, ToIntArray, ToStringArray } from '@app/api';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { DESCRIPTION_MAX } from './issue.dto';

class MergeRequestAttributesDto {
  @IsOptional() @IsString() @MaxLength(DESCRIPTION_MAX) description?: string;
  @IsOptionalNotNull() @ToStringArray() @IsString({ each: true }) labels?: string[];
  @IsOptional() @ToIntArray() @DbInt({ each: true }) assignee_ids?: number[];
  @IsOptional() @ToInt() @DbInt() assignee_id?: number;
  @IsOptional() @EmptyToNull() @ToInt() @DbInt() milestone_id?: number | null;
}

export class CreateMergeRequestDto extends MergeRequestAttributesDto {
  @Required() @IsString() @MaxLength(255) source_branch: string;
  @Required() @IsString() @MaxLength(255) target_branch: string;
  @Required() @IsString() @MaxLength(255) title: string;
}

export class UpdateMergeRequestDto extends MergeRequestAttributesDto {
  @IsOptionalNotNull() @IsString() @MaxLength(255) title?: string;
  @IsOptionalNotNull() @IsString() @MaxLength(255) target_branch?: string;
  @IsOptional() @IsIn(['close', 'reopen']) state_event?: 'close' | 'reopen';
}

export class ListMergeRequestsDto {
  @IsOptional() @IsIn(['opened', 'closed', 'locked', 'merged', 'all']) state?: 'opened' | 'closed' | 'locked' | 'merged' | 'all';
  @IsOptional() @ToIntArray() @DbInt({ each: true }) iids?: number[];
  /** `None`, `Any`, or label names that must all be present. */
  @IsOptional() @ToStringArray() @IsString({ each: true }) labels?: string[];
  @IsOptional() @IsString() milestone?: string;
  @IsOptional() @IsString() source_branch?: string;
  @IsOptional() @IsString() target_branch?: string;
  @IsOptional() @IsIn(['created_at', 'updated_at']) order_by?: 'created_at' | 'updated_at';
  @IsOptional() @IsIn(['asc', 'desc']) sort?: 'asc' | 'desc';
}
