import { ArrayNotEmpty, IsArray, IsDefined, IsIn, IsInt, IsISO8601, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { SCOPES, ToInt, ToStringArray } from '@app/api';

export class CreateAccessTokenDto {
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name: string;

  @IsDefined()
  @ToStringArray()
  @IsArray()
  @ArrayNotEmpty({ message: "can't be blank" })
  @IsIn(SCOPES as unknown as string[], { each: true, message: 'contains an invalid scope' })
  scopes: string[];

  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'is not a valid date' })
  expires_at?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  description?: string;
}

export class CreateResourceAccessTokenDto extends CreateAccessTokenDto {
  @IsOptional()
  @ToInt()
  @IsInt()
  @IsIn([10, 20, 30, 40, 50], { message: 'does not have a valid value' })
  access_level?: number;
}

export class ListAccessTokensDto {
  @IsOptional() @ToInt() @IsInt() user_id?: number;
  @IsOptional() @IsIn(['active', 'inactive']) state?: 'active' | 'inactive';
  @IsOptional() @IsIn(['true', 'false']) revoked?: string;
  @IsOptional() @IsString() search?: string;
}
