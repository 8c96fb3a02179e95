import { IsBoolean, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { DbInt, EmptyToNull, IsOptionalNotNull, Required, ToBoolean, ToInt, ToStringArray } from '@app/api';
import { DESCRIPTION_MAX, ISSUE_TITLE_MAX } from './issue.dto';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

class EpicAttributesDto {
  @IsOptional() @IsString() @MaxLength(DESCRIPTION_MAX) description?: string;
  @IsOptionalNotNull() @ToStringArray() @IsString({ each: true }) labels?: string[];
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() confidential?: boolean;
  /** Fixed dates (`start_date_fixed`/`due_date_fixed` in GitLab; the older `start_date`/`end_date` too). */
  @IsOptional() @EmptyToNull() @Matches(DATE, { message: 'is invalid' }) start_date?: string | null;
  @IsOptional() @EmptyToNull() @Matches(DATE, { message: 'is invalid' }) start_date_fixed?: string | null;
  @IsOptional() @EmptyToNull() @Matches(DATE, { message: 'is invalid' }) due_date?: string | null;
  @IsOptional() @EmptyToNull() @Matches(DATE, { message: 'is invalid' }) due_date_fixed?: string | null;
  @IsOptional() @EmptyToNull() @Matches(DATE, { message: 'is invalid' }) end_date?: string | null;
}

export class CreateEpicDto extends EpicAttributesDto {
  @Required() @IsString() @MaxLength(ISSUE_TITLE_MAX) title: string;
}

export class UpdateEpicDto extends EpicAttributesDto {
  @IsOptionalNotNull() @IsString() @MaxLength(ISSUE_TITLE_MAX) title?: string;
  @IsOptional() @IsIn(['close', 'reopen']) state_event?: 'close' | 'reopen';
}

export class ListEpicsDto {
  @IsOptional() @IsIn(['opened', 'closed', 'all']) state?: 'opened' | 'closed' | 'all';
  @IsOptional() @ToStringArray() @IsString({ each: true }) labels?: string[];
  @IsOptional() @ToInt() @DbInt() author_id?: number;
  @IsOptional() @IsString() search?: string;
  @IsOptional() @IsIn(['created_at', 'updated_at', 'title']) order_by?: 'created_at' | 'updated_at' | 'title';
  @IsOptional() @IsIn(['asc', 'desc']) sort?: 'asc' | 'desc';
}
