import { Type } from '@sinclair/typebox';
import { Data, defineEvents, Id, NullableId, NullableString } from './event-part';

const VulnerabilityData = Data({
  vulnerability_id: Id,
  finding_id: NullableId,
  title: Type.String(),
  state: Type.String({ description: '`opened`, `detected`, `confirmed`, `resolved` or `dismissed`' }),
  from: Type.Union([Type.String(), Type.Null()], { description: 'the state before the change (null on creation)' }),
  severity: Type.String(),
  confidence: Type.String(),
  report_type: Type.String(),
  resolved_on_default_branch: Type.Boolean(),
});

const ScanData = Type.Object({
  job_id: Id,
  scan_type: Type.String(),
  status: Type.String({ description: '`succeeded` or `report_error`' }),
  findings_count: Type.Integer({ minimum: 0 }),
  errors: Type.Array(Type.Object({ type: Type.String(), message: Type.String() })),
});

/** Events of `libs/vulnerabilities`: vulnerabilities and their state, and the ingestion of pipelines' security reports. */
export const VULNERABILITIES_EVENT_PART = defineEvents({
  'vulnerability.created': { description: 'A vulnerability was created from a finding (state `opened`).', data: VulnerabilityData },
  'vulnerability.confirmed': { description: 'A vulnerability was confirmed (`from`: its previous state).', data: VulnerabilityData },
  'vulnerability.resolved': { description: 'A vulnerability was resolved.', data: VulnerabilityData },
  'vulnerability.dismissed': { description: 'A vulnerability was dismissed.', data: VulnerabilityData },
  'vulnerability.reverted': {
    description: 'A vulnerability went back to `detected`: reverted by a user, or (actor null) a resolved one reported again by a default-branch pipeline.',
    data: VulnerabilityData,
  },
  'security_reports.ingested': {
    description: 'The security reports of a finished default-branch pipeline were ingested: one entry per report, parse errors included.',
    data: Data({
      pipeline_id: Id,
      ref: NullableString,
      scans: Type.Array(ScanData),
      findings_created: Type.Integer({ minimum: 0 }),
      findings_updated: Type.Integer({ minimum: 0 }),
      resolved_on_default_branch: Type.Array(Id, { description: 'vulnerabilities no longer reported by this pipeline' }),
      still_detected: Type.Array(Id, { description: 'vulnerabilities reported again by this pipeline' }),
    }),
  },
});
