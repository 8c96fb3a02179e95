import { ValidationPipe } from '@nestjs/common';
import { toValidationDomainError } from './validation-errors';

/**
 * The global pipe: unknown attributes are stripped (`whitelist`), payloads become DTO
 * instances (`transform`), and failures are reported with the spec's bodies.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: false,
    validationError: { target: true, value: true },
    exceptionFactory: toValidationDomainError,
  });
}
