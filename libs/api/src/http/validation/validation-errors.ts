import { getMetadataStorage, ValidationError } from 'class-validator';
import { DomainError } from '../../errors/domain-error';
import type { ValidationMessages } from '../../errors/error-code';

/** The class-validator constraint that marks an attribute as required (see `Required()`). */
export const REQUIRED_CONSTRAINT = 'isDefined';
/** The class-validator constraint that refuses JSON null for an optional attribute (see `IsOptionalNotNull()`). */
export const NOT_NULL_CONSTRAINT = 'isNotNull';

const INVALID = 'is invalid';
const INVALID_VALUE = 'does not have a valid value';
const BLANK = "can't be blank";

type TextOf = (args: unknown[], value: unknown) => string;

/** GitLab's (Rails/Grape) wording for the failures of the common class-validator rules. */
const TEXTS: Record<string, TextOf> = {
  isNotEmpty: () => BLANK,
  [NOT_NULL_CONSTRAINT]: () => BLANK,
  arrayNotEmpty: () => BLANK,
  maxLength: ([max]) => `is too long (maximum is ${String(max)} characters)`,
  minLength: ([min]) => `is too short (minimum is ${String(min)} characters)`,
  isLength: ([min, max], value) =>
    typeof value === 'string' && typeof min === 'number' && value.length < min
      ? `is too short (minimum is ${min} characters)`
      : `is too long (maximum is ${String(max)} characters)`,
  arrayMaxSize: ([max]) => `is too long (maximum is ${String(max)} elements)`,
  arrayMinSize: ([min]) => `is too short (minimum is ${String(min)} elements)`,
  max: ([max]) => `must be less than or equal to ${String(max)}`,
  min: ([min]) => `must be greater than or equal to ${String(min)}`,
  isPositive: () => 'must be greater than 0',
  isNegative: () => 'must be less than 0',
  isIn: () => INVALID_VALUE,
  isEnum: () => INVALID_VALUE,
  equals: () => INVALID_VALUE,
  whitelistValidation: () => 'is not allowed',
};

/** Type and format checks: GitLab answers all of them with "is invalid". */
const INVALID_RULES = new Set([
  'isString',
  'isInt',
  'isNumber',
  'isNumberString',
  'isBoolean',
  'isBooleanString',
  'isDate',
  'isDateString',
  'isISO8601',
  'isUrl',
  'isEmail',
  'isArray',
  'isObject',
  'isUUID',
  'matches',
  'isAlphanumeric',
  'isHexColor',
  'isIP',
  'isJSON',
  'isLowercase',
  'isUppercase',
  'nestedValidation',
  'isNotIn',
  'isDivisibleBy',
  'maxDate',
  'minDate',
  'isTimeZone',
  'isLatitude',
  'isLongitude',
  'isFQDN',
  'isSemVer',
  'isMimeType',
  'isPort',
  'isBase64',
]);

/**
 * Type checks: when one fails, the other rules of the property (length, range) are
 * meaningless for that value, so the property only says "is invalid" (as Grape's coercion).
 */
const TYPE_RULES = new Set(['isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject', 'isDate']);

/** The arguments a rule was declared with (`@MaxLength(255)` → `[255]`), from class-validator's metadata. */
function constraintArgs(error: ValidationError, rule: string): unknown[] {
  const target = error.target as object | undefined;
  if (!target) return [];
  const metadata = getMetadataStorage()
    .getTargetValidationMetadatas(target.constructor, '', true, false)
    .find((m) => m.propertyName === error.property && (m.name === rule || m.type === rule));
  return (metadata?.constraints ?? []) as unknown[];
}

/** One failure text in GitLab's wording; a custom message is kept, minus a leading property name. */
export function gitlabText(error: ValidationError, rule: string, message: string): string {
  const text = TEXTS[rule];
  if (text) return text(constraintArgs(error, rule), error.value);
  if (INVALID_RULES.has(rule)) return INVALID;
  const prefix = `${error.property} `;
  const stripped = message.startsWith(prefix) ? message.slice(prefix.length) : message;
  return stripped.length > 0 ? stripped : INVALID;
}

const childName = (parent: string, property: string): string => (parent === '' ? property : `${parent}[${property}]`);

/** The first attribute (depth first, Grape's bracket notation) that a `Required()` rule found missing. */
export function findMissingAttribute(errors: ValidationError[], parent = ''): string | undefined {
  for (const error of errors) {
    const name = childName(parent, error.property);
    if (error.constraints && REQUIRED_CONSTRAINT in error.constraints) return name;
    const nested = findMissingAttribute(error.children ?? [], name);
    if (nested !== undefined) return nested;
  }
  return undefined;
}

/** `{property: [texts], embedded: {property: [texts]}}` — the spec's validation body. */
export function toValidationMessages(errors: ValidationError[]): ValidationMessages {
  const messages: ValidationMessages = {};
  for (const error of errors) {
    const rules = Object.entries(error.constraints ?? {});
    if (NOT_NULL_CONSTRAINT in (error.constraints ?? {})) {
      // null for an attribute that cannot be null: blank, whatever its type rules say about null.
      messages[error.property] = [BLANK];
    } else if (rules.some(([rule]) => TYPE_RULES.has(rule))) {
      messages[error.property] = [INVALID];
    } else if (rules.length > 0) {
      const texts = rules.map(([rule, message]) => gitlabText(error, rule, message));
      messages[error.property] = [...new Set(texts)];
    } else if (error.children && error.children.length > 0) {
      messages[error.property] = toValidationMessages(error.children);
    }
  }
  return messages;
}

/**
 * The `exceptionFactory` of the global ValidationPipe: a missing required attribute gives
 * 400 `{"message":"400 (Bad request) \"<attr>\" not given"}`, any other failure 400
 * `{"message":{"<property>":["<text>"]}}`.
 */
export function toValidationDomainError(errors: ValidationError[]): DomainError {
  const missing = findMissingAttribute(errors);
  if (missing !== undefined) return DomainError.missing(missing);
  return DomainError.invalid(toValidationMessages(errors));
}
