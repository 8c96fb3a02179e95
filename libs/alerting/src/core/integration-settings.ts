import { DomainError, tierAtLeast } from '@app/api';
import type { ServiceTier } from '@app/config';
import { AttributeMapping, mappingProblems, toAttributeMappings } from '../engine/attribute-mapping';
import type { AlertIntegrationType } from '../entities/alert-http-integration.entity';

export interface IntegrationSettingsInput {
  payloadExample?: unknown;
  payloadAttributeMappings?: unknown;
}

/** Largest accepted `payload_example`, in characters. */
export const PAYLOAD_EXAMPLE_MAX_LENGTH = 100_000;

/**
 * Checks the custom mapping settings of an integration (PREMIUM): `payload_example` must be a
 * JSON object (given as JSON text or as the object), `payload_attribute_mappings` a list of
 * `{field_name, path, type, label}`. Returns the values to store; 400 on bad input or tier.
 */
export function checkIntegrationSettings(
  input: IntegrationSettingsInput,
  tier: ServiceTier,
  type: AlertIntegrationType = 'http',
): { payloadExample?: string | null; payloadAttributeMappings?: AttributeMapping[] } {
  const result: { payloadExample?: string | null; payloadAttributeMappings?: AttributeMapping[] } = {};
  const premium = tierAtLeast(tier, 'premium');
  if (type === 'prometheus') {
    const example = input.payloadExample !== undefined && input.payloadExample !== null && input.payloadExample !== '';
    const mappings = Array.isArray(input.payloadAttributeMappings)
      ? input.payloadAttributeMappings.length > 0
      : input.payloadAttributeMappings !== undefined && input.payloadAttributeMappings !== null;
    if (example) throw DomainError.invalid({ payload_example: ['is not supported by a Prometheus integration'] });
    if (mappings) throw DomainError.invalid({ payload_attribute_mappings: ['is not supported by a Prometheus integration'] });
    return {};
  }
  if (input.payloadExample !== undefined && input.payloadExample !== null && input.payloadExample !== '') {
    if (!premium) throw DomainError.invalid({ payload_example: ['custom payload mapping requires the PREMIUM tier'] });
    result.payloadExample = payloadExampleText(input.payloadExample);
  } else if (input.payloadExample !== undefined) {
    result.payloadExample = null;
  }
  if (input.payloadAttributeMappings !== undefined && input.payloadAttributeMappings !== null) {
    const empty = Array.isArray(input.payloadAttributeMappings) && input.payloadAttributeMappings.length === 0;
    if (!premium && !empty) throw DomainError.invalid({ payload_attribute_mappings: ['custom payload mapping requires the PREMIUM tier'] });
    const problems = mappingProblems(input.payloadAttributeMappings);
    if (problems.length > 0) throw DomainError.invalid({ payload_attribute_mappings: problems });
    result.payloadAttributeMappings = toAttributeMappings(input.payloadAttributeMappings as Array<Record<string, unknown>>);
  }
  return result;
}

function payloadExampleText(value: unknown): string {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    if (value.length > PAYLOAD_EXAMPLE_MAX_LENGTH)
      throw DomainError.invalid({ payload_example: [`is too long (maximum is ${PAYLOAD_EXAMPLE_MAX_LENGTH} characters)`] });
    try {
      parsed = JSON.parse(value);
    } catch {
      throw DomainError.invalid({ payload_example: ['must be valid JSON'] });
    }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw DomainError.invalid({ payload_example: ['must be a JSON object'] });
  const text = JSON.stringify(parsed);
  if (text.length > PAYLOAD_EXAMPLE_MAX_LENGTH)
    throw DomainError.invalid({ payload_example: [`is too long (maximum is ${PAYLOAD_EXAMPLE_MAX_LENGTH} characters)`] });
  return typeof value === 'string' ? value : text;
}
