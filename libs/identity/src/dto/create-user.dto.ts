import { DbInt, IsValidEmail, ToBoolean, ToInt } from '@app/api';
import { IsBoolean, IsDefined, IsOptional, IsString, MaxLength, Min, MinLength, ValidateBy } from 'class-validator';
import { isValidUsername, USERNAME_FORMAT_MESSAGE } from './username-rules';

export class CreateUserDto {
  @IsDefined()
  @IsValidEmail()
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
  @ValidateBy({
    name: 'username',
    validator: { validate: (value) => typeof value === 'string' && isValidUsername(value), defaultMessage: () => USERNAME_FORMAT_MESSAGE },
  })
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
  @IsOptional() @ToInt() @DbInt() projects_limit?: number;
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
