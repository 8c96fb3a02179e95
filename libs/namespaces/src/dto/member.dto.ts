import { IsBoolean, IsDefined, IsInt, IsISO8601, IsOptional, IsString } from 'class-validator';
import { ToBoolean, ToInt } from '@app/api';
import { EmptyToNull, ToIntArray } from './transforms';

export class AddMemberDto {
  @IsOptional() @ToInt() @IsInt() user_id?: number;
  @IsOptional() @IsString() username?: string;
  @IsDefined() @ToInt() @IsInt() access_level: number;
  /** `YYYY-MM-DD`; '' or null: no expiry. */
  @IsOptional() @EmptyToNull() @IsISO8601({ strict: true }) expires_at?: string | null;
  @IsOptional() @IsString() invite_source?: string;
  @IsOptional() @ToInt() @IsInt() member_role_id?: number;
}

export class UpdateMemberDto {
  @IsDefined() @ToInt() @IsInt() access_level: number;
  /** `YYYY-MM-DD`; '' or null clears the expiry. */
  @IsOptional() @EmptyToNull() @IsISO8601({ strict: true }) expires_at?: string | null;
  @IsOptional() @ToInt() @IsInt() member_role_id?: number;
}

export class ListMembersDto {
  @IsOptional() @IsString() query?: string;
  @IsOptional() @ToIntArray() @IsInt({ each: true }) user_ids?: number[];
  @IsOptional() @ToIntArray() @IsInt({ each: true }) skip_users?: number[];
  @IsOptional() @ToBoolean() @IsBoolean() show_seat_info?: boolean;
}

export class RemoveMemberDto {
  @IsOptional() @ToBoolean() @IsBoolean() skip_subresources?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() unassign_issuables?: boolean;
}
