import { DbInt, EmptyToNull, ToBoolean, ToInt, ToIntArray } from '@app/api';
import { IsBoolean, IsDefined, IsISO8601, IsOptional, IsString } from 'class-validator';

export class AddMemberDto {
  @IsOptional() @ToInt() @DbInt() user_id?: number;
  @IsOptional() @IsString() username?: string;
  @IsDefined() @ToInt() @DbInt() access_level: number;
  /** `YYYY-MM-DD`; '' or null: no expiry. */
  @IsOptional() @EmptyToNull() @IsISO8601({ strict: true }) expires_at?: string | null;
  @IsOptional() @IsString() invite_source?: string;
  @IsOptional() @ToInt() @DbInt() member_role_id?: number;
}

export class UpdateMemberDto {
  @IsDefined() @ToInt() @DbInt() access_level: number;
  /** `YYYY-MM-DD`; '' or null clears the expiry. */
  @IsOptional() @EmptyToNull() @IsISO8601({ strict: true }) expires_at?: string | null;
  @IsOptional() @ToInt() @DbInt() member_role_id?: number;
}

export class ListMembersDto {
  @IsOptional() @IsString() query?: string;
  @IsOptional() @ToIntArray() @DbInt({ each: true }) user_ids?: number[];
  @IsOptional() @ToIntArray() @DbInt({ each: true }) skip_users?: number[];
  @IsOptional() @ToBoolean() @IsBoolean() show_seat_info?: boolean;
}

export class RemoveMemberDto {
  @IsOptional() @ToBoolean() @IsBoolean() skip_subresources?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() unassign_issuables?: boolean;
}
