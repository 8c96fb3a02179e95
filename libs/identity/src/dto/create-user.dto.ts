import { IsBoolean, IsDefined, IsEmail, IsInt, IsOptional, IsString, Matches, MaxLength, Min, MinLength } from 'class-validator';
import { ToBoolean, ToInt } from '@app/api';

export const USERNAME_PATTERN = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;

export class CreateUserDto {
  @IsDefined()
  @IsEmail({}, { message: 'is invalid' })
  @MaxLength(255)
  email: string;

  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name: string;

  @IsDefined()
  @IsString()
  @MaxLength(255)
  @Matches(USERNAME_PATTERN, { message: 'can contain only letters, digits, \'_\', \'-\' and \'.\'. Cannot start with \'-\'' })
  username: string;

  @IsOptional()
  @IsString()
  @MinLength(8, { message: 'is too short (minimum is 8 characters)' })
  @MaxLength(128)
  password?: string;

  @IsOptional() @ToBoolean() @IsBoolean() reset_password?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() force_random_password?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() skip_confirmation?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() admin?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() external?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() private_profile?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() can_create_group?: boolean;
  @IsOptional() @ToInt() @IsInt() @Min(0) projects_limit?: number;
  @IsOptional() @IsString() @MaxLength(255) bio?: string;
  @IsOptional() @IsString() @MaxLength(255) location?: string;
  @IsOptional() @IsString() @MaxLength(255) public_email?: string;
  @IsOptional() @IsString() @MaxLength(255) skype?: string;
  @IsOptional() @IsString() @MaxLength(255) linkedin?: string;
  @IsOptional() @IsString() @MaxLength(255) twitter?: string;
  @IsOptional() @IsString() @MaxLength(255) website_url?: string;
  @IsOptional() @IsString() @MaxLength(255) organization?: string;
  @IsOptional() @IsString() @MaxLength(255) job_title?: string;
}
