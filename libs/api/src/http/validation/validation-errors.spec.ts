import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import {
  IsEmail,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidateNested,
  validateSync,
} from 'class-validator';
import { ErrorCode } from '../../errors/error-code';
import { IsOptionalNotNull, Required } from './decorators';
import { findMissingAttribute, toValidationDomainError, toValidationMessages } from './validation-errors';

class AddressDto {
  @Required()
  @IsString()
  city: string;

  @IsOptional()
  @Length(3, 5)
  zip?: string;
}

class UserDto {
  @Required()
  @IsString()
  @MinLength(2)
  @MaxLength(8)
  username: string;

  @IsOptional()
  @IsEmail()
  email?: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(60)
  access_level?: number;

  @IsOptional()
  @IsIn(['a', 'b'])
  kind?: string;

  @IsOptional()
  @IsNotEmpty()
  bio?: string;

  @IsOptional()
  @ValidateBy({ name: 'notTaken', validator: { validate: () => false, defaultMessage: () => 'has already been taken' } })
  name?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => AddressDto)
  address?: AddressDto;
}

class RenameDto {
  @IsOptionalNotNull() @IsString() @MinLength(2) title?: string;
  @IsOptionalNotNull() @IsInt() @Max(60) level?: number;
  @IsOptional() @IsString() description?: string | null;
}

const validate = (plain: object) => validateSync(plainToInstance(UserDto, plain), { validationError: { target: true, value: true } });

describe(toValidationDomainError.name, () => {
  it('reports the first missing required attribute', () => {
    const sut = toValidationDomainError(validate({ email: 'nope' }));
    expect(sut.code).toBe(ErrorCode.MISSING_ATTRIBUTE);
    expect(sut.message).toBe('400 (Bad request) "username" not given');
  });

  it('names a missing nested attribute with brackets', () => {
    expect(findMissingAttribute(validate({ username: 'root', address: {} }))).toBe('address[city]');
  });

  it('reports every other failure with GitLab texts', () => {
    const sut = toValidationDomainError(
      validate({ username: 'r', email: 'x', access_level: 99, kind: 'z', bio: '', name: 'dup', address: { city: 'Paris', zip: '1234567' } }),
    );
    expect(sut.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(sut.details.validation).toEqual({
      username: ['is too short (minimum is 2 characters)'],
      email: ['is invalid'],
      access_level: ['must be less than or equal to 60'],
      kind: ['does not have a valid value'],
      bio: ["can't be blank"],
      name: ['has already been taken'],
      address: { zip: ['is too long (maximum is 5 characters)'] },
    });
  });

  it('says only "is invalid" when the type is wrong', () => {
    expect(toValidationMessages(validate({ username: 12345678901, access_level: 'many' }))).toEqual({
      username: ['is invalid'],
      access_level: ['is invalid'],
    });
  });

  it('reads the bounds of length rules from their declaration', () => {
    expect(toValidationMessages(validate({ username: 'a-much-too-long-name', address: { city: 'x', zip: '1' } }))).toEqual({
      username: ['is too long (maximum is 8 characters)'],
      address: { zip: ['is too short (minimum is 3 characters)'] },
    });
  });
});

describe(IsOptionalNotNull.name, () => {
  const check = (plain: object) => validateSync(plainToInstance(RenameDto, plain), { validationError: { target: true, value: true } });

  it('lets an absent attribute through, as IsOptional does', () => {
    expect(check({})).toEqual([]);
    expect(check({ description: null })).toEqual([]);
  });

  it("refuses null with GitLab's blank answer alone, not the type rules", () => {
    const sut = toValidationDomainError(check({ title: null, level: null, description: null }));
    expect(sut.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(sut.details.validation).toEqual({ title: ["can't be blank"], level: ["can't be blank"] });
  });

  it('validates a present value with the other rules', () => {
    expect(toValidationMessages(check({ title: 'x', level: 61 }))).toEqual({
      title: ['is too short (minimum is 2 characters)'],
      level: ['must be less than or equal to 60'],
    });
    expect(check({ title: 'ok', level: 3 })).toEqual([]);
  });
});
