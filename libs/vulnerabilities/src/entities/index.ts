import { SecurityScanEntity } from './security-scan.entity';
import { VulnerabilityFindingIdentifierEntity } from './vulnerability-finding-identifier.entity';
import { VulnerabilityFindingEntity } from './vulnerability-finding.entity';
import { VulnerabilityIdentifierEntity } from './vulnerability-identifier.entity';
import { VulnerabilityScannerEntity } from './vulnerability-scanner.entity';
import { VulnerabilityEntity } from './vulnerability.entity';

export {
  SecurityScanEntity,
  VulnerabilityEntity,
  VulnerabilityFindingEntity,
  VulnerabilityFindingIdentifierEntity,
  VulnerabilityIdentifierEntity,
  VulnerabilityScannerEntity,
};
export type { SecurityScanStatus } from './security-scan.entity';
export { VULNERABILITY_STATES, type VulnerabilityState } from './vulnerability.entity';

/** The entities of the vulnerabilities library, listed in the data source's `ENTITIES`. */
export const VULNERABILITIES_ENTITIES = [
  VulnerabilityScannerEntity,
  VulnerabilityIdentifierEntity,
  VulnerabilityFindingEntity,
  VulnerabilityFindingIdentifierEntity,
  VulnerabilityEntity,
  SecurityScanEntity,
];
