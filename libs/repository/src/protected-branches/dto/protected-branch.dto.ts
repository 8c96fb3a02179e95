import { DbInt, Required, ToBoolean, ToInt } from '@app/api';
import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { PROTECTED_ACCESS_LEVELS } from '../branch-permissions';

export const PROTECTED_BRANCH_NAME_MAX = 255;
/** Most entries one `allowed_to_*` array may carry. */
export const MAX_GRANTS_PER_ACTION = 100;

/** One item of `allowed_to_push` / `allowed_to_merge` / `allowed_to_unprotect`. */
export class GrantItemDto {
  @IsOptional() @ToInt() @DbInt() user_id?: number;
  @IsOptional() @ToInt() @DbInt() group_id?: number;
  @IsOptional() @ToInt() @DbInt() @IsIn(PROTECTED_ACCESS_LEVELS) access_level?: number;
  /** PATCH: the entry to change or remove. */
  @IsOptional() @ToInt() @DbInt() id?: number;
  /** PATCH: remove the entry `id`. */
  @IsOptional() @ToBoolean() @IsBoolean() _destroy?: boolean;
}

const Grants = (): PropertyDecorator =>
  applyDecorators(
    IsOptional(),
    IsArray(),
    ArrayMaxSize(MAX_GRANTS_PER_ACTION),
    ValidateNested({ each: true }),
    Type(() => GrantItemDto),
  );

/** Attributes shared by POST and PATCH. */
class ProtectedBranchFlagsDto {
  @IsOptional() @ToBoolean() @IsBoolean() allow_force_push?: boolean;
  /** PREMIUM. */
  @IsOptional() @ToBoolean() @IsBoolean() code_owner_approval_required?: boolean;
  /** PREMIUM. */
  @Grants() allowed_to_push?: GrantItemDto[];
  /** PREMIUM. */
  @Grants() allowed_to_merge?: GrantItemDto[];
  /** PREMIUM. */
  @Grants() allowed_to_unprotect?: GrantItemDto[];
}

/** `POST /projects/:id/protected_branches`. */
export class CreateProtectedBranchDto extends ProtectedBranchFlagsDto {
  @Required() @IsString() @IsNotEmpty() @MaxLength(PROTECTED_BRANCH_NAME_MAX) name: string;
  @IsOptional() @ToInt() @DbInt() @IsIn(PROTECTED_ACCESS_LEVELS) push_access_level?: number;
  @IsOptional() @ToInt() @DbInt() @IsIn(PROTECTED_ACCESS_LEVELS) merge_access_level?: number;
  @IsOptional() @ToInt() @DbInt() @IsIn(PROTECTED_ACCESS_LEVELS) unprotect_access_level?: number;
}

/** `PATCH /projects/:id/protected_branches/:name` (PREMIUM). */
export class UpdateProtectedBranchDto extends ProtectedBranchFlagsDto {}

/** `GET /projects/:id/protected_branches`. */
export class ListProtectedBranchesDto {
  @IsOptional() @IsString() @MaxLength(PROTECTED_BRANCH_NAME_MAX) search?: string;
}
