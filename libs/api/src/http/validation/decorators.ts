import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsDefined, IsOptional, ValidateNested } from 'class-validator';

/**
 * The attribute must be present (not undefined or null). When it is missing the request
 * fails with 400 `{"message":"400 (Bad request) \"<attr>\" not given"}`; other rules on the
 * attribute report their failures in the validation body.
 */
export const Required = (): PropertyDecorator => IsDefined();

/** An optional embedded object (or array of them) validated with its own class. */
export const Embedded = (type: () => new () => object): PropertyDecorator =>
  applyDecorators(IsOptional(), ValidateNested(), Type(type));
