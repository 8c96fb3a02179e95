import { Injectable, Logger } from '@nestjs/common';
import { isCompleted, ObjectStorage } from '@app/ci';
import { OutboxService, type NewDomainEvent } from '@app/messaging';
import { ProjectsRepository } from '@app/namespaces';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { DataSource } from 'typeorm';
import { isSecurityReportType, SECURITY_REPORT_TYPES, SecurityReportType } from '../report/finding-fingerprints';
import { ParsedFinding, parseSecurityReport, SecurityReportParseError } from '../report/security-report-parser';
import { VULNERABILITY_EVENTS, vulnerabilityEvent } from '../core/vulnerabilities.events';
import { SecurityReportArtifact, VulnerabilitiesRepository } from '../core/vulnerabilities.repository';

export type IngestionOutcome =
  | { kind: 'skipped'; reason: string }
  | { kind: 'ingested'; scans: ScanOutcome[]; findingsCreated: number; findingsUpdated: number; resolved: number[]; stillDetected: number[] };

export interface ScanOutcome {
  jobId: number;
  scanType: SecurityReportType;
  status: 'succeeded' | 'report_error';
  errors: Array<{ type: string; message: string }>;
  warnings: Array<{ type: string; message: string }>;
  findings: ParsedFinding[];
}

/**
 * Ingests the security reports of a finished default-branch pipeline: every `sast`,
 * `dependency_scanning`, `container_scanning`, `secret_detection` and `dast` artifact of its
 * current jobs is streamed from object storage and parsed; a report that cannot be parsed is
 * recorded as a `report_error` scan of the pipeline with its message (the other reports are
 * still ingested). Then, in one transaction: the pipeline's scans, the scanners, identifiers
 * and findings (created or updated by UUID), `resolved_on_default_branch` of the vulnerabilities
 * of the scanned report types (when this is the newest ingested pipeline), resolved
 * vulnerabilities reported again set back to `detected`, and the events. Re-running it for the
 * same pipeline gives the same result (it is what the consumer does on redelivery).
 */
@Injectable()
export class IngestSecurityReportsUseCase {
  private readonly logger = new Logger(IngestSecurityReportsUseCase.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly projects: ProjectsRepository,
    private readonly storage: ObjectStorage,
    private readonly repository: VulnerabilitiesRepository,
  ) {}

  async execute(pipelineId: number): Promise<IngestionOutcome> {
    const pipeline = await this.repository.findPipeline(pipelineId);
    if (!pipeline) return { kind: 'skipped', reason: 'pipeline not found' };
    if (!isCompleted(pipeline.status)) return { kind: 'skipped', reason: `pipeline is ${pipeline.status}` };
    const project = await this.projects.findById(pipeline.projectId);
    if (!project) return { kind: 'skipped', reason: 'project not found' };
    if (pipeline.tag || !project.defaultBranch || pipeline.ref !== project.defaultBranch) return { kind: 'skipped', reason: 'not a default-branch pipeline' };

    const artifacts = await this.repository.reportArtifacts(pipeline.id, SECURITY_REPORT_TYPES);
    const scans: ScanOutcome[] = [];
    for (const artifact of artifacts) {
      if (isSecurityReportType(artifact.fileType)) scans.push(await this.parseArtifact(project.id, artifact, artifact.fileType));
    }
    const scope = { projectId: project.id, groupId: project.namespace.kind === 'group' ? project.namespace.id : null };

    return this.dataSource.transaction(async (tx) => {
      await this.repository.lockProject(tx, project.id);
      await this.repository.replaceScans(
        tx,
        pipeline.id,
        scans.map((scan) => ({
          projectId: project.id,
          pipelineId: pipeline.id,
          jobId: scan.jobId,
          scanType: scan.scanType,
          status: scan.status,
          errors: scan.errors,
          warnings: scan.warnings,
          findingsCount: scan.findings.length,
        })),
      );
      // One finding per UUID across the pipeline's reports (two jobs may report the same one).
      const findings = [...new Map(scans.flatMap((scan) => scan.findings).map((f) => [f.uuid, f])).values()];
      const scannerIds = await this.repository.upsertScanners(
        tx,
        project.id,
        findings.map((f) => f.scanner),
      );
      const identifierIds = await this.repository.upsertIdentifiers(
        tx,
        project.id,
        findings.flatMap((f) => f.identifiers),
      );
      const upserted = await this.repository.upsertFindings(tx, project.id, pipeline.id, findings, scannerIds, identifierIds);
      const uuids = findings.map((f) => f.uuid);

      const events: NewDomainEvent[] = [];
      let resolved: number[] = [];
      let stillDetected: number[] = [];
      const newer = await this.repository.newestIngestedPipeline(tx, project.id, pipeline.id);
      if (newer === null || newer < pipeline.id) {
        const scannedTypes = [...new Set(scans.filter((scan) => scan.status === 'succeeded').map((scan) => scan.scanType))];
        const changed = await this.repository.markResolvedOnDefaultBranch(tx, project.id, scannedTypes, uuids);
        resolved = changed.filter((c) => c.resolved).map((c) => c.id);
        stillDetected = changed.filter((c) => !c.resolved).map((c) => c.id);
        for (const { vulnerability, findingId } of await this.repository.resolvedAmong(tx, project.id, uuids)) {
          vulnerability.state = 'detected';
          vulnerability.resolvedAt = null;
          vulnerability.resolvedById = null;
          vulnerability.resolvedOnDefaultBranch = false;
          const saved = await this.repository.saveVulnerability(tx, vulnerability);
          events.push(vulnerabilityEvent(VULNERABILITY_EVENTS.REVERTED, null, saved, findingId, 'resolved', scope));
        }
      }
      const findingsCreated = upserted.filter((row) => row.inserted).length;
      const findingsUpdated = upserted.length - findingsCreated;
      events.unshift({
        type: VULNERABILITY_EVENTS.REPORTS_INGESTED,
        actor: pipeline.userId,
        projectId: scope.projectId,
        groupId: scope.groupId,
        target: { type: 'pipeline', id: pipeline.id, iid: pipeline.iid, title: pipeline.ref },
        data: {
          pipeline_id: pipeline.id,
          ref: pipeline.ref,
          scans: scans.map((scan) => ({
            job_id: scan.jobId,
            scan_type: scan.scanType,
            status: scan.status,
            findings_count: scan.findings.length,
            errors: scan.errors,
          })),
          findings_created: findingsCreated,
          findings_updated: findingsUpdated,
          resolved_on_default_branch: resolved,
          still_detected: stillDetected,
        },
      });
      await this.outbox.append(tx, events);
      return { kind: 'ingested', scans, findingsCreated, findingsUpdated, resolved, stillDetected } as const;
    });
  }

  /** Streams one report artifact through the parser; every failure becomes the scan's error, never an exception. */
  private async parseArtifact(projectId: number, artifact: SecurityReportArtifact, scanType: SecurityReportType): Promise<ScanOutcome> {
    const base = { jobId: artifact.jobId, scanType };
    const failed = (message: string): ScanOutcome => ({
      ...base,
      status: 'report_error',
      errors: [{ type: 'ParsingError', message }],
      warnings: [],
      findings: [],
    });
    if (artifact.fileFormat === 'zip') return failed(`${scanType} report artifact is a zip archive; security reports are raw or gzip JSON`);
    let object: { stream: Readable; size: number } | null;
    try {
      object = await this.storage.get(artifact.storageKey);
    } catch (error) {
      this.logger.warn(`security report ${artifact.storageKey} unreadable: ${(error as Error).message}`);
      object = null;
    }
    if (!object) return failed(`${scanType} report artifact is missing from storage`);
    let source: Readable = object.stream;
    if (artifact.fileFormat === 'gzip') {
      const gunzip = createGunzip();
      object.stream.on('error', (error) => gunzip.destroy(error));
      source = object.stream.pipe(gunzip);
    }
    try {
      const report = await parseSecurityReport(source, { reportType: scanType, projectId });
      return {
        ...base,
        status: 'succeeded',
        errors: [],
        warnings: report.warnings.map((message) => ({ type: 'Warning', message })),
        findings: report.findings,
      };
    } catch (error) {
      if (error instanceof SecurityReportParseError) return failed(error.message);
      throw error;
    } finally {
      object.stream.destroy();
    }
  }
}
