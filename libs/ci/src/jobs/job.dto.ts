import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional } from 'class-validator';
import { ToBoolean } from '@app/api';
import { JOB_STATUSES, JobStatus } from '../status/ci-status';

/** `scope` as GitLab coerces it: one string, an array (`scope[]=…`) or a hash's values. */
const ToScopeArray = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => {
    if (typeof value === 'string') return [value];
    if (Array.isArray(value)) return value;
    if (value && typeof value === 'object') return Object.values(value);
    return value;
  });

/** `GET /projects/:id/jobs`, `…/pipelines/:pipeline_id/jobs` and `…/bridges`. */
export class ListJobsDto {
  @IsOptional() @ToScopeArray() @IsArray() @ArrayMaxSize(JOB_STATUSES.length * 2) @IsIn(JOB_STATUSES, { each: true }) scope?: JobStatus[];
  @IsOptional() @ToBoolean() @IsBoolean() include_retried?: boolean;
}
