import { Transform } from 'class-transformer';
import { IsNumber, IsObject, IsOptional, IsString } from 'class-validator';

/**
 * The bodies gitlab-runner sends, read as leniently as the protocol always was: a value of the
 * wrong type is as if it were absent (a `token` that is not a string is no token, so the route
 * answers the 403 of a wrong token; a `state` that is not a string is a heartbeat), never the
 * validation pipe's 400. The transforms do that, so the rules below never fail.
 */

/** A string stays; anything else is absent. */
const textOrAbsent = ({ value }: { value: unknown }): string | undefined => (typeof value === 'string' ? value : undefined);
const Text = (): PropertyDecorator => Transform(textOrAbsent);

/** A number stays, an integer-looking string (no spaces) becomes one; anything else is absent. */
const toExitCode = ({ value }: { value: unknown }): number | undefined =>
  typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : undefined;

const INFO_KEYS = ['name', 'version', 'revision', 'platform', 'architecture', 'executor', 'shell'] as const;

/** The runner's `info`: its string attributes among `INFO_KEYS` (at most 255 characters each); absent when it is not an object (an array has none of them). */
const toRunnerInfo = ({ value }: { value: unknown }): Record<string, string> | undefined => {
  if (!value || typeof value !== 'object') return undefined;
  const info = value as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const key of INFO_KEYS) if (typeof info[key] === 'string') out[key] = info[key].slice(0, 255);
  return out;
};

/** A body (or query) carrying the runner's `glrt-` token: `POST /runners/verify`, `DELETE /runners`. */
export class RunnerTokenDto {
  @IsOptional() @Text() @IsString() token?: string;
}

/** `POST /jobs/request`. */
export class RequestJobDto extends RunnerTokenDto {
  /** The queue version the runner saw last (`X-GitLab-Last-Update` of its previous poll). */
  @IsOptional() @Text() @IsString() last_update?: string;
  @IsOptional() @Transform(toRunnerInfo) @IsObject() info?: Record<string, string>;
}

/** `PUT /jobs/:id`: the job token may come in the body too. */
export class UpdateJobDto {
  @IsOptional() @Text() @IsString() token?: string;
  /** `running` (a heartbeat, also when absent), `success` or `failed`; the use case refuses others once the token is known. */
  @IsOptional() @Text() @IsString() state?: string;
  @IsOptional() @Text() @IsString() failure_reason?: string;
  @IsOptional() @Transform(toExitCode) @IsNumber({ allowNaN: true, allowInfinity: true }) exit_code?: number;
}

/** The query of `POST /jobs/:id/artifacts`. */
export class UploadArtifactQueryDto {
  @IsOptional() @Text() @IsString() artifact_type?: string;
  @IsOptional() @Text() @IsString() artifact_format?: string;
  @IsOptional() @Text() @IsString() expire_in?: string;
}
