import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsDefined, IsOptional, ValidateBy, ValidateIf, ValidateNested } from 'class-validator';
import { NOT_NULL_CONSTRAINT } from './validation-errors';

/**
 * The attribute must be present (not undefined or null). When it is missing the request
 * fails with 400 `{"message":"400 (Bad request) \"<attr>\" not given"}`; other rules on the
 * attribute report their failures in the validation body.
 */
export const Required = (): PropertyDecorator => IsDefined();

/** An optional embedded object (or array of them) validated with its own class. */
export const Embedded = (type: () => new () => object): PropertyDecorator => applyDecorators(IsOptional(), ValidateNested(), Type(type));

/**
 * An optional attribute that cannot be null: like `@IsOptional()`, an absent attribute is not
 * validated, but JSON `null` is refused with GitLab's model answer for a blank attribute, 400
 * `{"message":{"<attr>":["can't be blank"]}}` (the attribute's other rules are then not reported).
 * Use it for every optional attribute whose column is NOT NULL or whose code needs a value; keep
 * `@IsOptional()` where `null` clears the attribute (`description`, `milestone_id`...).
 */
export const IsOptionalNotNull = (): PropertyDecorator =>
  applyDecorators(
    ValidateIf((_object: object, value: unknown) => value !== undefined),
    ValidateBy({ name: NOT_NULL_CONSTRAINT, validator: { validate: (value: unknown) => value !== null } }),
  );
