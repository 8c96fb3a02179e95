import { Injectable } from '@nestjs/common';
import { SettingsReader } from '@app/settings';
import busboy from 'busboy';
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { parseCiDuration } from '../config/ci-duration';
import { REPORT_TYPES } from '../config/ci-config.types';
import type { CiJobEntity } from '../entities/ci-job.entity';
import { JobsRepository } from '../jobs/jobs.repository';
import { artifactKey, ObjectStorage, ObjectTooLargeError } from '../storage/object-storage';

/** Artifact types a runner may upload (GitLab's `Ci::JobArtifact.file_types`, those this service keeps). */
export const ARTIFACT_TYPES: readonly string[] = [
  'archive',
  'metadata',
  'trace',
  ...REPORT_TYPES,
  'lsif',
  'network_referee',
  'cluster_applications',
  'repository_xray',
  'jacoco',
];
export const ARTIFACT_FORMATS: readonly string[] = ['raw', 'zip', 'gzip'];
/** GitLab's default `default_artifacts_expire_in`. */
export const DEFAULT_ARTIFACTS_EXPIRE_IN = '30 days';

export interface UploadArtifactCommand {
  job: CiJobEntity;
  headers: IncomingHttpHeaders;
  body: Readable;
  artifactType?: string;
  artifactFormat?: string;
  expireIn?: string;
}

/**
 * `stored`; `job-not-running`; `invalid`: a parameter or the form is refused (GitLab's Grape
 * validation); `not-saved`: the upload could not be recorded (GitLab's service error);
 * `too-large`: past the `max_artifacts_size` setting.
 */
export type UploadArtifactOutcome =
  | { result: 'stored' }
  | { result: 'job-not-running' }
  | { result: 'invalid'; message: string }
  | { result: 'not-saved'; message: string }
  | { result: 'too-large' };

/**
 * `POST /jobs/:id/artifacts`: streams the multipart `file` (and an optional `metadata` file)
 * into object storage, bounded by the `max_artifacts_size` setting, then records it. Only while
 * the job runs. The archive's `expire_in` (parameter, else the job's `artifacts:expire_in`, else
 * 30 days; `never` keeps it) sets the job's `artifacts_expire_at`.
 */
@Injectable()
export class UploadArtifactUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobsRepository,
    private readonly storage: ObjectStorage,
    private readonly settings: SettingsReader,
  ) {}

  async execute(command: UploadArtifactCommand): Promise<UploadArtifactOutcome> {
    const { job } = command;
    if (job.status !== 'running') {
      command.body.resume();
      return { result: 'job-not-running' };
    }
    const fileType = command.artifactType ?? 'archive';
    const fileFormat = command.artifactFormat ?? 'zip';
    if (!ARTIFACT_TYPES.includes(fileType)) return { result: 'invalid', message: 'artifact_type does not have a valid value' };
    if (!ARTIFACT_FORMATS.includes(fileFormat)) return { result: 'invalid', message: 'artifact_format does not have a valid value' };
    const expireText = command.expireIn ?? job.options.artifacts?.expireIn ?? DEFAULT_ARTIFACTS_EXPIRE_IN;
    const expireSeconds = expireText === 'never' ? null : parseCiDuration(expireText);
    if (expireText !== 'never' && expireSeconds === null) return { result: 'invalid', message: 'expire_in is invalid' };
    // A date no timestamp holds (`1000000000 years`): GitLab's save fails and it answers 400 with the reason.
    const expireAt = expireSeconds === null ? null : new Date(Date.now() + expireSeconds * 1000);
    if (expireAt !== null && Number.isNaN(expireAt.getTime())) return { result: 'not-saved', message: 'expire_in is out of range' };
    const maxBytes = (await this.settings.get()).number('max_artifacts_size') * 1024 * 1024;
    const contentType = String(command.headers['content-type'] ?? '');
    if (!contentType.toLowerCase().startsWith('multipart/form-data')) return { result: 'invalid', message: 'file is missing' };

    const stored: { field: string; filename: string; size: number; key: string }[] = [];
    let failure: UploadArtifactOutcome | null = null;
    await new Promise<void>((resolve) => {
      const writes: Promise<void>[] = [];
      let settled = false;
      const finish = () => {
        if (settled) return;
        settled = true;
        void Promise.allSettled(writes).then(() => resolve());
      };
      let parser: busboy.Busboy | undefined;
      /**
       * Stops parsing and discards the rest of the body, so that the answer can be sent at once.
       * Destroying the parser ends the file stream it is writing (with an error), so every write
       * settles and its partial object is removed.
       */
      const abandon = (outcome: UploadArtifactOutcome) => {
        failure ??= outcome;
        if (parser) {
          command.body.unpipe(parser);
          parser.destroy();
        }
        command.body.resume();
        finish();
      };
      // Every stream of the upload has its `error` handled from its creation on: an upload cut
      // short (no closing boundary, a dropped connection) is a 400, never an unhandled error.
      command.body.on('error', () => abandon({ result: 'invalid', message: 'upload interrupted' }));
      command.body.once('close', () => {
        if (!command.body.readableEnded) abandon({ result: 'invalid', message: 'upload interrupted' });
      });
      try {
        parser = busboy({ headers: command.headers, limits: { files: 2, fields: 50, fieldSize: 64 * 1024 } });
      } catch {
        abandon({ result: 'invalid', message: 'file is missing' });
        return;
      }
      parser.on('error', () => abandon({ result: 'invalid', message: 'malformed multipart body: the form ends before its closing boundary or is not valid' }));
      parser.on('file', (field, stream, info) => {
        // A file stream fails with the form (`Unexpected end of form`): the parser's own error and
        // the storage's rejection report it; this listener only keeps the failure handled.
        stream.on('error', () => undefined);
        if (failure || (field !== 'file' && field !== 'metadata')) {
          stream.resume();
          return;
        }
        const filename = (info.filename || (field === 'file' ? 'artifacts.zip' : 'metadata.gz')).split(/[\\/]/).pop()!.slice(0, 255);
        const type = field === 'file' ? fileType : 'metadata';
        // A key of its own per upload: a refused or repeated upload never touches a stored file.
        const key = `${artifactKey(job.projectId, job.id, type, filename)}.${randomBytes(6).toString('hex')}`;
        writes.push(
          this.storage.put(key, stream, { maxBytes }).then(
            (size) => void stored.push({ field, filename, size, key }),
            (error: unknown) =>
              abandon(error instanceof ObjectTooLargeError ? { result: 'too-large' } : { result: 'invalid', message: 'file could not be stored' }),
          ),
        );
      });
      parser.on('close', finish);
      command.body.pipe(parser);
    });
    if (failure || !stored.some((file) => file.field === 'file')) {
      await Promise.all(stored.map((file) => this.storage.delete(file.key)));
      return failure ?? { result: 'invalid', message: 'file is missing' };
    }
    const replaced: string[] = [];
    const outcome = await this.dataSource.transaction(async (tx): Promise<UploadArtifactOutcome> => {
      const current = await this.jobs.lock(tx, job.id);
      if (!current || current.status !== 'running') return { result: 'job-not-running' };
      for (const file of stored) {
        const type = file.field === 'file' ? fileType : 'metadata';
        const previous = await this.jobs.saveArtifact(tx, {
          jobId: job.id,
          projectId: job.projectId,
          fileType: type,
          fileFormat: file.field === 'file' ? fileFormat : 'gzip',
          filename: file.filename,
          size: String(file.size),
          storageKey: file.key,
          expireAt,
        });
        if (previous) replaced.push(previous);
      }
      if (fileType === 'archive') {
        current.artifactsExpireAt = expireAt;
        await this.jobs.save(tx, current);
      }
      return { result: 'stored' };
    });
    if (outcome.result !== 'stored') await Promise.all(stored.map((file) => this.storage.delete(file.key)));
    else await Promise.all(replaced.map((key) => this.storage.delete(key)));
    return outcome;
  }
}
