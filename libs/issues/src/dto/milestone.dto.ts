import { IsIn, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';
import { Required } from '@app/api';
import { DbInt } from './db-int';
import { EmptyToNull, ToIntArray } from '@app/namespaces';

class MilestoneAttributesDto {
  @IsOptional() @IsString() description?: string;
  @IsOptional() @EmptyToNull() @IsISO8601({ strict: true }) due_date?: string | null;
  @IsOptional() @EmptyToNull() @IsISO8601({ strict: true }) start_date?: string | null;
}

export class CreateMilestoneDto extends MilestoneAttributesDto {
  @Required() @IsString() @MaxLength(255) title: string;
}

export class UpdateMilestoneDto extends MilestoneAttributesDto {
  @IsOptional() @IsString() @MaxLength(255) title?: string;
  @IsOptional() @IsIn(['close', 'activate']) state_event?: 'close' | 'activate';
}

export class ListMilestonesDto {
  @IsOptional() @ToIntArray() @DbInt({ each: true }) iids?: number[];
  @IsOptional() @IsIn(['active', 'closed']) state?: 'active' | 'closed';
  @IsOptional() @IsString() title?: string;
  @IsOptional() @IsString() search?: string;
}
