import { Transform, Type } from 'class-transformer';
import { IsArray, IsBoolean, IsDateString, IsIn, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { PIPELINE_SOURCES, PipelineSource } from '../config/pipeline-seed';
import { PIPELINE_STATUSES, PipelineStatus } from '../status/ci-status';
import { Required } from '@app/api';

export class PipelineVariableDto {
  @Required() @IsString() @MaxLength(255) key: string;
  @Required() @IsString() value: string;
  @IsOptional() @IsIn(['env_var', 'file']) variable_type?: 'env_var' | 'file';
}

/** `POST /projects/:id/pipeline`. */
export class CreatePipelineDto {
  @Required() @IsString() @MaxLength(255) ref: string;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => PipelineVariableDto) variables?: PipelineVariableDto[];
}

export const PIPELINE_LIST_SCOPES = ['running', 'pending', 'finished', 'branches', 'tags'] as const;
export const PIPELINE_ORDER_BY = ['id', 'status', 'ref', 'updated_at', 'user_id'] as const;

/** `GET /projects/:id/pipelines`. */
export class ListPipelinesDto {
  @IsOptional() @IsIn(PIPELINE_LIST_SCOPES) scope?: (typeof PIPELINE_LIST_SCOPES)[number];
  @IsOptional() @IsIn(PIPELINE_STATUSES) status?: PipelineStatus;
  @IsOptional() @IsIn(PIPELINE_SOURCES) source?: PipelineSource;
  @IsOptional() @IsString() ref?: string;
  @IsOptional() @IsString() sha?: string;
  @IsOptional()
  @Transform(({ value }) => (value === 'true' || value === true ? true : value === 'false' || value === false ? false : value))
  @IsBoolean()
  yaml_errors?: boolean;
  @IsOptional() @IsString() username?: string;
  @IsOptional() @IsDateString() updated_after?: string;
  @IsOptional() @IsDateString() updated_before?: string;
  @IsOptional() @IsIn(PIPELINE_ORDER_BY) order_by?: (typeof PIPELINE_ORDER_BY)[number];
  @IsOptional() @IsIn(['asc', 'desc']) sort?: 'asc' | 'desc';
}
