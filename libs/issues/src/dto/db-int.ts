import { applyDecorators } from '@nestjs/common';
import { IsInt, Max, Min } from 'class-validator';

/** Largest value of a PostgreSQL `integer` column: larger ids cannot exist (and must not reach the database). */
export const DB_INT_MAX = 2_147_483_647;

/** A non-negative integer that fits an `integer` column (an id, an iid, a weight); `each` for arrays. */
export const DbInt = (options: { each?: boolean } = {}): PropertyDecorator =>
  applyDecorators(IsInt(options), Min(0, options), Max(DB_INT_MAX, options));
