import { createHash } from 'node:crypto';

/** The security report types whose findings this service ingests (`artifacts:reports:<type>`). */
export const SECURITY_REPORT_TYPES = ['sast', 'dependency_scanning', 'container_scanning', 'secret_detection', 'dast'] as const;
export type SecurityReportType = (typeof SECURITY_REPORT_TYPES)[number];
export const isSecurityReportType = (value: string): value is SecurityReportType => (SECURITY_REPORT_TYPES as readonly string[]).includes(value);

/** GitLab's `Enums::Vulnerability.severity_levels`; anything else becomes `unknown`. */
export const SEVERITY_LEVELS = ['info', 'unknown', 'low', 'medium', 'high', 'critical'] as const;
export type SeverityLevel = (typeof SEVERITY_LEVELS)[number];
/** GitLab's `Enums::Vulnerability.confidence_levels`; anything else becomes `unknown`. */
export const CONFIDENCE_LEVELS = ['ignore', 'unknown', 'experimental', 'low', 'medium', 'high', 'confirmed'] as const;
export type ConfidenceLevel = (typeof CONFIDENCE_LEVELS)[number];

export const severityOf = (value: unknown): SeverityLevel => {
  const lower = typeof value === 'string' ? value.toLowerCase() : '';
  return (SEVERITY_LEVELS as readonly string[]).includes(lower) ? (lower as SeverityLevel) : 'unknown';
};
export const confidenceOf = (value: unknown): ConfidenceLevel => {
  const lower = typeof value === 'string' ? value.toLowerCase() : '';
  return (CONFIDENCE_LEVELS as readonly string[]).includes(lower) ? (lower as ConfidenceLevel) : 'unknown';
};

export const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

/** Ruby's `"#{value}"`: nil (and anything absent) interpolates as the empty string. */
const interpolated = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

const objectAt = (value: unknown, key: string): Record<string, unknown> => {
  const inner = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
  return inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : {};
};

/** `Gem::Version.correct?`: a version string RubyGems accepts. */
const GEM_VERSION = /^\s*[0-9]+(\.[0-9a-zA-Z]+)*(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?\s*$/;
const HASH_LIKE = /^[0-9a-f]{32,128}$/i;

/** The image name a container scanning location is tracked by: the tag dropped unless it is a version. */
export function dockerImageNameWithoutTag(image: string): string {
  const [base, version] = image.split(':');
  if (version !== undefined && GEM_VERSION.test(version) && !HASH_LIKE.test(version)) return image;
  return base;
}

/**
 * The text a finding's location is tracked by, per report type (GitLab's
 * `Gitlab::Ci::Reports::Security::Locations::*#fingerprint_data`): the location fingerprint is
 * its SHA-1. A finding that moves keeps its identity only where this text does not change.
 */
export function locationFingerprintData(reportType: SecurityReportType, location: Record<string, unknown>): string {
  switch (reportType) {
    case 'sast':
    case 'secret_detection':
      return `${interpolated(location.file)}:${interpolated(location.start_line)}:${interpolated(location.end_line)}`;
    case 'dependency_scanning':
      return `${interpolated(location.file)}:${interpolated(objectAt(objectAt(location, 'dependency'), 'package').name)}`;
    case 'container_scanning':
      return `${dockerImageNameWithoutTag(interpolated(location.image))}:${interpolated(objectAt(objectAt(location, 'dependency'), 'package').name)}`;
    case 'dast':
      return `${interpolated(location.path)}:${interpolated(location.method)}:${interpolated(location.param)}`;
  }
}

/** The path shown in a generated finding name (`<identifier> in <path>`). */
export function fingerprintPath(reportType: SecurityReportType, location: Record<string, unknown>): string | null {
  const value = reportType === 'dast' ? location.path : reportType === 'container_scanning' ? location.image : location.file;
  return typeof value === 'string' && value !== '' ? value : null;
}

export const locationFingerprint = (reportType: SecurityReportType, location: Record<string, unknown>): string =>
  sha1(locationFingerprintData(reportType, location));

/** An identifier's fingerprint: SHA-1 of `<type>:<value>` (GitLab's `Identifier#fingerprint`). */
export const identifierFingerprint = (externalType: string, externalId: string): string => sha1(`${externalType}:${externalId}`);

/** GitLab's production namespace of finding UUIDs (`Gitlab::UUID`). */
export const FINDING_UUID_NAMESPACE = '58dc0f06-936c-43b3-93bb-71693f1b6570';

/** RFC 4122 version-5 UUID (SHA-1 of namespace + name). */
export function uuidV5(name: string, namespace: string = FINDING_UUID_NAMESPACE): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1').update(ns).update(name, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A finding's identity in its project: `<report_type>-<primary identifier fingerprint>-<location
 * fingerprint>-<project id>` as a v5 UUID, as GitLab computes it. The same finding in the next
 * pipeline gets the same UUID, so it is updated rather than duplicated.
 */
export const findingUuid = (
  reportType: SecurityReportType,
  primaryIdentifierFingerprint: string,
  locationFingerprintValue: string,
  projectId: number,
): string => uuidV5(`${reportType}-${primaryIdentifierFingerprint}-${locationFingerprintValue}-${projectId}`);
