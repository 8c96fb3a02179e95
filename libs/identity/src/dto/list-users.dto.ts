import { IsBoolean, IsIn, IsISO8601, IsOptional, IsString } from 'class-validator';
import { ToBoolean } from '@app/api';
import { IsCustomAttributesFilter } from '@app/custom-attributes';

export class ListUsersDto {
  @IsOptional() @IsString() username?: string;
  @IsOptional() @IsString() search?: string;
  @IsOptional() @ToBoolean() @IsBoolean() active?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() blocked?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() external?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() admins?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() exclude_internal?: boolean;
  @IsOptional() @IsISO8601() created_after?: string;
  @IsOptional() @IsISO8601() created_before?: string;
  @IsOptional() @IsIn(['id', 'name', 'username', 'created_at', 'updated_at']) order_by?: string;
  @IsOptional() @IsIn(['asc', 'desc']) sort?: 'asc' | 'desc';
  @IsOptional() @ToBoolean() @IsBoolean() with_custom_attributes?: boolean;
  /** `custom_attributes[key]=value` (administrators). */
  @IsOptional() @IsCustomAttributesFilter() custom_attributes?: Record<string, string>;
}
