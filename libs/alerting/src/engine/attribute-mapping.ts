/** Alert fields a custom payload mapping can point elsewhere in the payload (PREMIUM). */
export const MAPPABLE_ALERT_FIELDS = [
  'title',
  'description',
  'start_time',
  'end_time',
  'service',
  'monitoring_tool',
  'hosts',
  'severity',
  'fingerprint',
  'service_environment_name',
] as const;
export type MappableAlertField = (typeof MAPPABLE_ALERT_FIELDS)[number];

export const MAPPING_TYPES = ['string', 'array', 'datetime'] as const;
export type MappingType = (typeof MAPPING_TYPES)[number];

/** One field of a custom mapping: where the value is in the payload and how to read it. */
export interface AttributeMapping {
  fieldName: MappableAlertField;
  /** Keys (and array indexes) from the payload root, e.g. `["alert", "labels", "severity"]`. */
  path: Array<string | number>;
  type: MappingType;
  label?: string | null;
}

/** The value at `path` in `payload`, or undefined when any step is missing. */
export function valueAtPath(payload: unknown, path: ReadonlyArray<string | number>): unknown {
  let current: unknown = payload;
  for (const step of path) {
    if (current === null || typeof current !== 'object') return undefined;
    if (Array.isArray(current)) {
      const index = typeof step === 'number' ? step : /^\d+$/.test(step) ? Number(step) : NaN;
      if (!Number.isInteger(index)) return undefined;
      current = current[index];
    } else {
      if (typeof step !== 'string' && typeof step !== 'number') return undefined;
      const key = String(step);
      if (!Object.prototype.hasOwnProperty.call(current, key)) return undefined;
      current = (current as Record<string, unknown>)[key];
    }
  }
  return current;
}

/** Reads a mapped value with its declared type; undefined when absent or not of that type. */
export function readMappedValue(payload: unknown, mapping: AttributeMapping): unknown {
  const value = valueAtPath(payload, mapping.path);
  if (value === undefined || value === null || value === '') return undefined;
  switch (mapping.type) {
    case 'string':
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
    case 'datetime':
      return typeof value === 'string' || typeof value === 'number' ? value : undefined;
    case 'array':
      return Array.isArray(value) ? (value.length > 0 ? value : undefined) : typeof value === 'string' || typeof value === 'number' ? [value] : undefined;
  }
}

/** Validates a mapping list given by an API caller; returns the problems (empty when valid). */
export function mappingProblems(value: unknown): string[] {
  if (!Array.isArray(value)) return ['must be an array of {field_name, path, type}'];
  const problems: string[] = [];
  const seen = new Set<string>();
  value.forEach((entry: unknown, index) => {
    const at = `entry ${index}`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      problems.push(`${at} must be an object`);
      return;
    }
    const { field_name: fieldName, path, type, label } = entry as Record<string, unknown>;
    if (typeof fieldName !== 'string' || !(MAPPABLE_ALERT_FIELDS as readonly string[]).includes(fieldName)) {
      problems.push(`${at}: field_name must be one of ${MAPPABLE_ALERT_FIELDS.join(', ')}`);
    } else if (seen.has(fieldName)) problems.push(`${at}: field_name ${fieldName} is mapped twice`);
    else seen.add(fieldName);
    if (
      !Array.isArray(path) ||
      path.length === 0 ||
      path.length > 20 ||
      !path.every((step) => (typeof step === 'string' && step.length > 0 && step.length <= 255) || (Number.isInteger(step) && (step as number) >= 0))
    ) {
      problems.push(`${at}: path must be a non-empty array of keys`);
    }
    if (typeof type !== 'string' || !(MAPPING_TYPES as readonly string[]).includes(type)) {
      problems.push(`${at}: type must be one of ${MAPPING_TYPES.join(', ')}`);
    }
    if (label !== undefined && label !== null && (typeof label !== 'string' || label.length > 255)) {
      problems.push(`${at}: label must be a string of at most 255 characters`);
    }
  });
  return problems;
}

/** API shape (`field_name`) to the engine's mapping. Call after `mappingProblems` returned nothing. */
export const toAttributeMappings = (value: ReadonlyArray<Record<string, unknown>>): AttributeMapping[] =>
  value.map((entry) => ({
    fieldName: entry.field_name as MappableAlertField,
    path: entry.path as Array<string | number>,
    type: entry.type as MappingType,
    label: (entry.label as string | null | undefined) ?? null,
  }));

/** Engine mapping to the API shape. */
export const presentAttributeMappings = (mappings: readonly AttributeMapping[]): Array<Record<string, unknown>> =>
  mappings.map((m) => ({ field_name: m.fieldName, path: m.path, type: m.type, label: m.label ?? null }));
