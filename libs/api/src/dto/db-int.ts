import { applyDecorators } from '@nestjs/common';
import { IsInt, Max, Min } from 'class-validator';
import { INT32_MAX } from '../params/int-param';

/**
 * The integer attribute type of every DTO: a non-negative integer that fits an `integer`
 * column (an id, an iid, a filter such as `id_after`); `each` for arrays. Beyond the range:
 * 400 `{"message":{"<attr>":["must be less than or equal to 2147483647"]}}`, never a query.
 * `min` raises the lower bound (`DbInt({ min: 1 })`); a negative `min` allows signed values.
 */
export const DbInt = (options: { each?: boolean; min?: number } = {}): PropertyDecorator => {
  const each = { each: options.each };
  return applyDecorators(IsInt(each), Min(options.min ?? 0, each), Max(INT32_MAX, each));
};
