import { DbInt, EmptyToNull, IsOptionalNotNull, Required, ToIntArray } from '@app/api';
import { IsIn, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';

class MilestoneAttributesDto {
  @IsOptional() @IsString() description?: string;
  @IsOptional() @EmptyToNull() @IsISO8601({ strict: true }) due_date?: string | null;
  @IsOptional() @EmptyToNull() @IsISO8601({ strict: true }) start_date?: string | null;
}

export class CreateMilestoneDto extends MilestoneAttributesDto {
  @Required() @IsString() @MaxLength(255) title: string;
}

export class UpdateMilestoneDto extends MilestoneAttributesDto {
  @IsOptionalNotNull() @IsString() @MaxLength(255) title?: string;
  @IsOptional() @IsIn(['close', 'activate']) state_event?: 'close' | 'activate';
}

export class ListMilestonesDto {
  @IsOptional() @ToIntArray() @DbInt({ each: true }) iids?: number[];
  @IsOptional() @IsIn(['active', 'closed']) state?: 'active' | 'closed';
  @IsOptional() @IsString() title?: string;
  @IsOptional() @IsString() search?: string;
}
