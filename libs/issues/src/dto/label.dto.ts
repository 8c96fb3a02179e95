import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsOptionalNotNull, Required } from '@app/api';

/** `POST /projects/:id/labels`, `POST /groups/:id/labels`. */
export class CreateLabelDto {
  @Required() @IsString() @MaxLength(255) name: string;
  /** `#RRGGBB` (or `#RGB`). */
  @Required() @IsString() @Matches(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, { message: 'must be a valid color code' }) color: string;
  @IsOptional() @IsString() @MaxLength(65_535) description?: string;
}

/** `PUT /projects/:id/labels/:label_id`, `PUT /groups/:id/labels/:label_id`: at least one of them. */
export class UpdateLabelDto {
  @IsOptionalNotNull() @IsString() @MaxLength(255) new_name?: string;
  @IsOptionalNotNull() @IsString() @Matches(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, { message: 'must be a valid color code' }) color?: string;
  @IsOptional() @IsString() @MaxLength(65_535) description?: string;
}
