import { Injectable } from '@nestjs/common';
import { CiPipelineEntity } from '@app/ci';
import { DataSource, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { SecurityScanEntity, VulnerabilityEntity, VulnerabilityFindingEntity, VulnerabilityIdentifierEntity, VulnerabilityScannerEntity } from '../entities';
import type { ParsedFinding, ParsedIdentifier, ParsedScanner } from '../report/security-report-parser';

/** Rows per statement of the bulk upserts (parameters stay small; one report can hold thousands of findings). */
const BATCH = 500;

const chunks = <T>(items: readonly T[], size = BATCH): T[][] => {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
};

/** The rows of a statement with RETURNING (TypeORM gives `[rows, count]` for UPDATE and DELETE). */
const returnedRows = <T>(result: unknown): T[] =>
  Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number' ? (result[0] as T[]) : (result as T[]);

export interface UpsertedFinding {
  id: number;
  uuid: string;
  inserted: boolean;
}

/** A security report artifact of a pipeline's job, as libs/ci stored it. */
export interface SecurityReportArtifact {
  jobId: number;
  fileType: string;
  fileFormat: string;
  storageKey: string;
  size: number;
}

/** Persistence of scanners, identifiers, findings, vulnerabilities and security scans. */
@Injectable()
export class VulnerabilitiesRepository {
  constructor(private readonly dataSource: DataSource) {}

  listQuery(projectId: number): SelectQueryBuilder<VulnerabilityEntity> {
    return this.dataSource.getRepository(VulnerabilityEntity).createQueryBuilder('v').where('v.project_id = :projectId', { projectId }).orderBy('v.id', 'DESC');
  }

  findById(id: number, manager: EntityManager = this.dataSource.manager, options: { lock?: boolean } = {}): Promise<VulnerabilityEntity | null> {
    return manager.findOne(VulnerabilityEntity, { where: { id }, lock: options.lock ? { mode: 'pessimistic_write' } : undefined });
  }

  findFinding(
    projectId: number,
    id: number,
    manager: EntityManager = this.dataSource.manager,
    options: { lock?: boolean } = {},
  ): Promise<VulnerabilityFindingEntity | null> {
    return manager.findOne(VulnerabilityFindingEntity, { where: { id, projectId }, lock: options.lock ? { mode: 'pessimistic_write' } : undefined });
  }

  async findingsOf(vulnerabilityIds: number[], manager: EntityManager = this.dataSource.manager): Promise<Map<number, VulnerabilityFindingEntity>> {
    if (vulnerabilityIds.length === 0) return new Map();
    const rows = await manager.find(VulnerabilityFindingEntity, { where: { vulnerabilityId: In(vulnerabilityIds) } });
    return new Map(rows.map((row) => [row.vulnerabilityId!, row]));
  }

  /** A project's findings, most severe first (then newest), filtered; `hideDismissed` leaves out those of dismissed vulnerabilities. */
  findingsQuery(
    projectId: number,
    filter: { reportTypes?: string[]; severities?: string[]; confidences?: string[]; hideDismissed: boolean },
  ): SelectQueryBuilder<VulnerabilityFindingEntity> {
    const qb = this.dataSource.getRepository(VulnerabilityFindingEntity).createQueryBuilder('f').where('f.project_id = :projectId', { projectId });
    if (filter.reportTypes?.length) qb.andWhere('f.report_type IN (:...reportTypes)', { reportTypes: filter.reportTypes });
    if (filter.severities?.length) qb.andWhere('f.severity IN (:...severities)', { severities: filter.severities });
    if (filter.confidences?.length) qb.andWhere('f.confidence IN (:...confidences)', { confidences: filter.confidences });
    if (filter.hideDismissed) qb.andWhere(`NOT EXISTS (SELECT 1 FROM vulnerabilities dv WHERE dv.id = f.vulnerability_id AND dv.state = 'dismissed')`);
    const rank = `CASE f.severity WHEN 'critical' THEN 6 WHEN 'high' THEN 5 WHEN 'medium' THEN 4 WHEN 'low' THEN 3 WHEN 'unknown' THEN 2 WHEN 'info' THEN 1 ELSE 0 END`;
    return qb.addSelect(rank, 'severity_rank').orderBy('severity_rank', 'DESC').addOrderBy('f.id', 'DESC');
  }

  /** Scanners, identifiers (primary first) and vulnerability states of findings, for presenting them. */
  async findingDetails(findings: VulnerabilityFindingEntity[]): Promise<{
    scanners: Map<number, VulnerabilityScannerEntity>;
    identifiers: Map<number, VulnerabilityIdentifierEntity[]>;
    states: Map<number, string>;
  }> {
    if (findings.length === 0) return { scanners: new Map(), identifiers: new Map(), states: new Map() };
    const manager = this.dataSource.manager;
    const scanners = await manager.find(VulnerabilityScannerEntity, { where: { id: In([...new Set(findings.map((f) => f.scannerId))]) } });
    const links: Array<{ finding_id: number; identifier_id: number }> = await manager.query(
      `SELECT finding_id, identifier_id FROM vulnerability_finding_identifiers WHERE finding_id = ANY($1) ORDER BY finding_id, identifier_id`,
      [findings.map((f) => f.id)],
    );
    const identifierRows = await manager.find(VulnerabilityIdentifierEntity, { where: { id: In([...new Set(links.map((l) => l.identifier_id))]) } });
    const byId = new Map(identifierRows.map((row) => [row.id, row]));
    const identifiers = new Map<number, VulnerabilityIdentifierEntity[]>();
    for (const finding of findings) {
      const own = links
        .filter((l) => l.finding_id === finding.id)
        .map((l) => byId.get(l.identifier_id)!)
        .filter(Boolean);
      own.sort((a, b) => (a.id === finding.primaryIdentifierId ? -1 : b.id === finding.primaryIdentifierId ? 1 : a.id - b.id));
      identifiers.set(finding.id, own);
    }
    const vulnerabilityIds = findings.map((f) => f.vulnerabilityId).filter((id): id is number => id !== null);
    const vulnerabilities = vulnerabilityIds.length ? await manager.find(VulnerabilityEntity, { where: { id: In(vulnerabilityIds) } }) : [];
    return { scanners: new Map(scanners.map((s) => [s.id, s])), identifiers, states: new Map(vulnerabilities.map((v) => [v.id, v.state])) };
  }

  scansOf(pipelineId: number): Promise<SecurityScanEntity[]> {
    return this.dataSource.getRepository(SecurityScanEntity).find({ where: { pipelineId }, order: { id: 'ASC' } });
  }

  /** The security report artifacts of a pipeline's current jobs (retried attempts left out). */
  async reportArtifacts(pipelineId: number, types: readonly string[]): Promise<SecurityReportArtifact[]> {
    const rows: Array<{ job_id: number; file_type: string; file_format: string; storage_key: string; size: string }> = await this.dataSource.query(
      `SELECT a.job_id, a.file_type, a.file_format, a.storage_key, a.size
         FROM ci_job_artifacts a JOIN ci_jobs j ON j.id = a.job_id
        WHERE j.pipeline_id = $1 AND j.retried = false AND a.file_type = ANY($2)
        ORDER BY a.job_id, a.file_type`,
      [pipelineId, types],
    );
    return rows.map((row) => ({
      jobId: row.job_id,
      fileType: row.file_type,
      fileFormat: row.file_format,
      storageKey: row.storage_key,
      size: Number(row.size),
    }));
  }

  /** Serializes the ingestions of one project (the outbox relay and the consumers may run anywhere). */
  async lockProject(tx: EntityManager, projectId: number): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('vulnerabilities'), $1)`, [projectId]);
  }

  /** The newest pipeline of the project whose reports were ingested, this one aside. */
  async newestIngestedPipeline(tx: EntityManager, projectId: number, exceptPipelineId: number): Promise<number | null> {
    const [row] = await tx.query(`SELECT max(pipeline_id) AS id FROM security_scans WHERE project_id = $1 AND pipeline_id <> $2`, [
      projectId,
      exceptPipelineId,
    ]);
    return row?.id ?? null;
  }

  async replaceScans(tx: EntityManager, pipelineId: number, scans: Array<Omit<SecurityScanEntity, 'id' | 'createdAt' | 'updatedAt'>>): Promise<void> {
    await tx.delete(SecurityScanEntity, { pipelineId });
    if (scans.length > 0) await tx.insert(SecurityScanEntity, scans);
  }

  /** Scanners by external id (created or renamed); returns external id → row id. */
  async upsertScanners(tx: EntityManager, projectId: number, scanners: ParsedScanner[]): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    const unique = [...new Map(scanners.map((s) => [s.externalId, s])).values()];
    for (const batch of chunks(unique)) {
      const rows: Array<{ id: number; external_id: string }> = await tx.query(
        `INSERT INTO vulnerability_scanners (project_id, external_id, name, vendor)
         SELECT $1, x.external_id, x.name, x.vendor FROM jsonb_to_recordset($2::jsonb) AS x(external_id text, name text, vendor text)
         ON CONFLICT (project_id, external_id) DO UPDATE SET name = EXCLUDED.name, vendor = EXCLUDED.vendor, updated_at = now()
         RETURNING id, external_id`,
        [projectId, JSON.stringify(batch.map((s) => ({ external_id: s.externalId, name: s.name, vendor: s.vendor })))],
      );
      for (const row of rows) ids.set(row.external_id, row.id);
    }
    return ids;
  }

  /** Identifiers by fingerprint; returns fingerprint → row id. */
  async upsertIdentifiers(tx: EntityManager, projectId: number, identifiers: ParsedIdentifier[]): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    const unique = [...new Map(identifiers.map((i) => [i.fingerprint, i])).values()];
    for (const batch of chunks(unique)) {
      const rows: Array<{ id: number; fingerprint: string }> = await tx.query(
        `INSERT INTO vulnerability_identifiers (project_id, fingerprint, external_type, external_id, name, url)
         SELECT $1, x.fingerprint, x.external_type, x.external_id, x.name, x.url
           FROM jsonb_to_recordset($2::jsonb) AS x(fingerprint text, external_type text, external_id text, name text, url text)
         ON CONFLICT (project_id, fingerprint) DO UPDATE SET name = EXCLUDED.name, url = EXCLUDED.url, updated_at = now()
         RETURNING id, fingerprint`,
        [
          projectId,
          JSON.stringify(
            batch.map((i) => ({ fingerprint: i.fingerprint, external_type: i.externalType, external_id: i.externalId, name: i.name, url: i.url })),
          ),
        ],
      );
      for (const row of rows) ids.set(row.fingerprint, row.id);
    }
    return ids;
  }

  /**
   * Findings created or updated by UUID (name, levels, location, metadata follow the newest
   * report); `latest_pipeline_id` only moves forward. Then their identifier links.
   */
  async upsertFindings(
    tx: EntityManager,
    projectId: number,
    pipelineId: number,
    findings: ParsedFinding[],
    scannerIds: Map<string, number>,
    identifierIds: Map<string, number>,
  ): Promise<UpsertedFinding[]> {
    const result: UpsertedFinding[] = [];
    for (const batch of chunks(findings)) {
      const rows: Array<{ id: number; uuid: string; inserted: boolean }> = await tx.query(
        `INSERT INTO vulnerability_findings (project_id, uuid, report_type, name, description, severity, confidence, scanner_id, primary_identifier_id,
                                             location_fingerprint, project_fingerprint, location, metadata_version, raw_metadata, latest_pipeline_id)
         SELECT $1, x.uuid, x.report_type, x.name, x.description, x.severity, x.confidence, x.scanner_id, x.primary_identifier_id,
                x.location_fingerprint, x.project_fingerprint, x.location, x.metadata_version, x.raw_metadata, $2
           FROM jsonb_to_recordset($3::jsonb) AS x(uuid uuid, report_type text, name text, description text, severity text, confidence text, scanner_id int,
                primary_identifier_id int, location_fingerprint text, project_fingerprint text, location jsonb, metadata_version text, raw_metadata text)
         ON CONFLICT (uuid) DO UPDATE SET
           name = EXCLUDED.name, description = EXCLUDED.description, severity = EXCLUDED.severity, confidence = EXCLUDED.confidence,
           scanner_id = EXCLUDED.scanner_id, primary_identifier_id = EXCLUDED.primary_identifier_id, location = EXCLUDED.location,
           location_fingerprint = EXCLUDED.location_fingerprint, project_fingerprint = EXCLUDED.project_fingerprint,
           metadata_version = EXCLUDED.metadata_version, raw_metadata = EXCLUDED.raw_metadata,
           latest_pipeline_id = GREATEST(vulnerability_findings.latest_pipeline_id, EXCLUDED.latest_pipeline_id), updated_at = now()
         RETURNING id, uuid, (xmax = 0) AS inserted`,
        [
          projectId,
          pipelineId,
          JSON.stringify(
            batch.map((f) => ({
              uuid: f.uuid,
              report_type: f.reportType,
              name: f.name,
              description: f.description,
              severity: f.severity,
              confidence: f.confidence,
              scanner_id: scannerIds.get(f.scanner.externalId),
              primary_identifier_id: identifierIds.get(f.identifiers[0].fingerprint),
              location_fingerprint: f.locationFingerprint,
              project_fingerprint: f.projectFingerprint,
              location: f.location,
              metadata_version: f.metadataVersion,
              raw_metadata: f.rawMetadata,
            })),
          ),
        ],
      );
      result.push(...rows);
      const byUuid = new Map(rows.map((row) => [row.uuid, row.id]));
      const links = batch.flatMap((f) => f.identifiers.map((i) => ({ finding_id: byUuid.get(f.uuid), identifier_id: identifierIds.get(i.fingerprint) })));
      for (const linkBatch of chunks(links, BATCH * 4)) {
        await tx.query(
          `INSERT INTO vulnerability_finding_identifiers (finding_id, identifier_id)
           SELECT x.finding_id, x.identifier_id FROM jsonb_to_recordset($1::jsonb) AS x(finding_id int, identifier_id int)
           ON CONFLICT DO NOTHING`,
          [JSON.stringify(linkBatch)],
        );
      }
    }
    return result;
  }

  /**
   * `resolved_on_default_branch` of the project's vulnerabilities whose findings are of the
   * report types this pipeline scanned successfully: false when the pipeline reported the
   * finding, true when it did not. Returns the vulnerabilities that changed.
   */
  async markResolvedOnDefaultBranch(
    tx: EntityManager,
    projectId: number,
    scannedTypes: string[],
    reportedUuids: string[],
  ): Promise<Array<{ id: number; resolved: boolean }>> {
    if (scannedTypes.length === 0) return [];
    const rows = returnedRows<{ id: number; resolved_on_default_branch: boolean }>(
      await tx.query(
        `UPDATE vulnerabilities v SET resolved_on_default_branch = NOT (f.uuid = ANY($3::uuid[])), updated_at = now()
         FROM vulnerability_findings f
        WHERE f.vulnerability_id = v.id AND v.project_id = $1 AND f.report_type = ANY($2)
          AND v.resolved_on_default_branch IS DISTINCT FROM NOT (f.uuid = ANY($3::uuid[]))
        RETURNING v.id, v.resolved_on_default_branch`,
        [projectId, scannedTypes, reportedUuids],
      ),
    );
    return rows.map((row) => ({ id: row.id, resolved: row.resolved_on_default_branch }));
  }

  /** Resolved vulnerabilities whose findings this pipeline reported again (to be set back to `detected`). */
  async resolvedAmong(
    tx: EntityManager,
    projectId: number,
    reportedUuids: string[],
  ): Promise<Array<{ vulnerability: VulnerabilityEntity; findingId: number }>> {
    if (reportedUuids.length === 0) return [];
    const rows: Array<{ id: number; finding_id: number }> = await tx.query(
      `SELECT v.id, f.id AS finding_id FROM vulnerabilities v JOIN vulnerability_findings f ON f.vulnerability_id = v.id
        WHERE v.project_id = $1 AND v.state = 'resolved' AND f.uuid = ANY($2::uuid[]) ORDER BY v.id FOR UPDATE OF v`,
      [projectId, reportedUuids],
    );
    if (rows.length === 0) return [];
    const entities = await tx.find(VulnerabilityEntity, { where: { id: In(rows.map((r) => r.id)) }, order: { id: 'ASC' } });
    const findingOf = new Map(rows.map((r) => [r.id, r.finding_id]));
    return entities.map((vulnerability) => ({ vulnerability, findingId: findingOf.get(vulnerability.id)! }));
  }

  saveVulnerability(tx: EntityManager, vulnerability: VulnerabilityEntity): Promise<VulnerabilityEntity> {
    return tx.save(VulnerabilityEntity, vulnerability);
  }

  /** Attaches a finding to its vulnerability; false when another vulnerability took it meanwhile. */
  async attachFinding(tx: EntityManager, findingId: number, vulnerabilityId: number): Promise<boolean> {
    const result = await tx.query(
      `UPDATE vulnerability_findings SET vulnerability_id = $2, updated_at = now() WHERE id = $1 AND vulnerability_id IS NULL RETURNING id`,
      [findingId, vulnerabilityId],
    );
    return returnedRows(result).length > 0;
  }

  /** The pipeline whose security reports are ingested. */
  findPipeline(pipelineId: number): Promise<CiPipelineEntity | null> {
    return this.dataSource.manager.findOneBy(CiPipelineEntity, { id: pipelineId });
  }
}
