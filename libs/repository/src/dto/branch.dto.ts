import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { Required, ToBoolean } from '@app/api';

export class ListBranchesDto {
  @IsOptional() @IsString() @MaxLength(255) search?: string;
}

export class CreateBranchDto {
  @Required() @IsString() @MaxLength(255) branch: string;
  @Required() @IsString() @MaxLength(1024) ref: string;
}

export class MergeMergeRequestDto {
  @IsOptional() @IsString() @MaxLength(100_000) merge_commit_message?: string;
  @IsOptional() @IsString() @MaxLength(100_000) squash_commit_message?: string;
  @IsOptional() @ToBoolean() @IsBoolean() squash?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() should_remove_source_branch?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() merge_when_pipeline_succeeds?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() auto_merge?: boolean;
  @IsOptional() @IsString() @MaxLength(64) sha?: string;
}
