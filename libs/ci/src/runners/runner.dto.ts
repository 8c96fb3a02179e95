import { Transform } from 'class-transformer';
import { IsArray, IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { DbInt, Required, toBooleanTransform as toBoolean } from '@app/api';

const toInteger = ({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value);
/** `tag_list` as an array or a comma-separated string (GitLab's `CommaSeparatedToArray`). */
const toTagList = ({ value }: { value: unknown }) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean)
    : Array.isArray(value)
      ? value.map((tag) => (typeof tag === 'string' ? tag.trim() : tag)).filter((tag) => tag !== '')
      : value;

class RunnerAttributesDto {
  @IsOptional() @IsString() @MaxLength(1024) description?: string;
  @IsOptional() @Transform(toBoolean) @IsBoolean() paused?: boolean;
  @IsOptional() @Transform(toBoolean) @IsBoolean() locked?: boolean;
  @IsOptional() @Transform(toBoolean) @IsBoolean() run_untagged?: boolean;
  @IsOptional() @Transform(toTagList) @IsArray() @IsString({ each: true }) @MaxLength(255, { each: true }) tag_list?: string[];
  @IsOptional() @IsIn(['not_protected', 'ref_protected']) access_level?: string;
  @IsOptional() @Transform(toInteger) @DbInt({ min: 600 }) maximum_timeout?: number;
  @IsOptional() @IsString() @MaxLength(1024) maintenance_note?: string;
}

/** `POST /user/runners`. */
export class CreateRunnerDto extends RunnerAttributesDto {
  @Required() @IsIn(['instance_type', 'group_type', 'project_type']) runner_type: 'instance_type' | 'group_type' | 'project_type';
  @IsOptional() @Transform(toInteger) @DbInt() group_id?: number;
  @IsOptional() @Transform(toInteger) @DbInt() project_id?: number;
}

/** `PUT /runners/:id`. */
export class UpdateRunnerDto extends RunnerAttributesDto {
  @IsOptional() @Transform(toBoolean) @IsBoolean() active?: boolean;
}

/** `GET /runners`, `/runners/all`, `/projects/:id/runners`. */
export class ListRunnersDto {
  @IsOptional() @IsIn(['instance_type', 'group_type', 'project_type']) type?: 'instance_type' | 'group_type' | 'project_type';
  @IsOptional() @Transform(toBoolean) @IsBoolean() paused?: boolean;
  @IsOptional() @IsIn(['online', 'offline', 'stale', 'never_contacted', 'active', 'paused']) status?: string;
  @IsOptional() @Transform(toTagList) @IsArray() @IsString({ each: true }) tag_list?: string[];
}
