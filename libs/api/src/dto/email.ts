import { ValidateBy, ValidationOptions } from 'class-validator';

/**
 * GitLab's one e-mail rule (Devise's `email_regexp`, `/\A[^@\s]+@[^@\s]+\z/`): something without
 * `@` or spaces on each side of one `@`. `user@email.com.2` and `user@localhost` are valid.
 */
const EMAIL = /^[^@\s]+@[^@\s]+$/;

export const isValidEmail = (value: unknown): value is string => typeof value === 'string' && EMAIL.test(value);

/** `@IsValidEmail()`: {@link isValidEmail}, with GitLab's message `is invalid`. */
export const IsValidEmail = (options?: ValidationOptions): PropertyDecorator =>
  ValidateBy({ name: 'isEmail', validator: { validate: (value) => isValidEmail(value), defaultMessage: () => 'is invalid' } }, options);
