import { IsBoolean, IsDefined, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { HOOK_DELIVERY_STATUSES, HookDeliveryStatus } from '../entities/hook-delivery.entity';
import { IsOptionalNotNull, NullToEmpty, ToBoolean } from '@app/api';

export const MAX_HOOK_TOKEN_LENGTH = 255;

/** The flags shared by `POST /hooks` and `PUT /hooks/:id`; absent means "default" or "unchanged". */
class SystemHookFlagsDto {
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() push_events?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() tag_push_events?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() merge_requests_events?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() repository_update_events?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() enable_ssl_verification?: boolean;

  /** Write-only; sent as a header, so printable ASCII only. An empty string or null removes it (update). */
  @IsOptional()
  @NullToEmpty()
  @IsString()
  @MaxLength(MAX_HOOK_TOKEN_LENGTH, { message: `is too long (maximum is ${MAX_HOOK_TOKEN_LENGTH} characters)` })
  @Matches(/^[\x20-\x7e]*$/)
  token?: string;
}

/** `POST /hooks`. The URL itself is checked by the use case (scheme, syntax). */
export class CreateSystemHookDto extends SystemHookFlagsDto {
  @IsDefined()
  @IsString()
  url: string;
}

/** `PUT /hooks/:id`: only the given attributes change. */
export class UpdateSystemHookDto extends SystemHookFlagsDto {
  @IsOptionalNotNull()
  @IsString()
  url?: string;
}

/** `GET /hooks/:id/events`. */
export class ListHookDeliveriesDto {
  @IsOptional()
  @IsIn(HOOK_DELIVERY_STATUSES)
  status?: HookDeliveryStatus;
}
