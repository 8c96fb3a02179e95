import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsOptionalNotNull, Required } from '@app/api';

export const BADGE_NAME_MAX = 255;

/** `POST …/badges`. The URLs are checked by the use case (absolute http(s) URLs). */
export class CreateBadgeDto {
  @Required() @IsString() link_url: string;
  @Required() @IsString() image_url: string;
  @IsOptional() @IsString() @MaxLength(BADGE_NAME_MAX) name?: string;
}

/** `PUT …/badges/:badge_id`: only the given attributes change. */
export class UpdateBadgeDto {
  @IsOptionalNotNull() @IsString() link_url?: string;
  @IsOptionalNotNull() @IsString() image_url?: string;
  @IsOptional() @IsString() @MaxLength(BADGE_NAME_MAX) name?: string;
}

/** `GET …/badges`: `name` filters by exact, case-sensitive name. */
export class ListBadgesDto {
  @IsOptional() @IsString() name?: string;
}

/** `GET …/badges/render`. */
export class RenderBadgeDto {
  @Required() @IsString() link_url: string;
  @Required() @IsString() image_url: string;
}
