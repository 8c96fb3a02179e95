import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CiJobEntity } from '../entities/ci-job.entity';
import { JobsRepository } from '../jobs/jobs.repository';
import { ObjectStorage, traceKey } from '../storage/object-storage';

/** Longest trace kept (GitLab's default `ci_jobs_trace_size_limit` is 100 MB). */
export const MAX_TRACE_BYTES = 100 * 1024 * 1024;

/**
 * `appended`: the chunk is stored, the trace is `size` bytes long; `range-mismatch`: the chunk does
 * not start at the current `size` (or would pass the size limit), the runner resends from there;
 * `job-not-running`: the job ended; `missing-range`: no usable `Content-Range`.
 */
export type AppendTraceOutcome =
  | { result: 'appended'; size: number; job: CiJobEntity }
  | { result: 'range-mismatch'; size: number }
  | { result: 'job-not-running'; job: CiJobEntity }
  | { result: 'missing-range' };

/** `start-end` of a `Content-Range` header (inclusive end), as the runner sends it. */
export function parseContentRange(header: string | undefined): { start: number; end: number } | null {
  const match = /^(?:bytes\s+)?(\d+)-(\d+)(?:\/(?:\d+|\*))?$/.exec((header ?? '').trim());
  if (!match) return null;
  const start = Number(match[1]);
  const end = Number(match[2]);
  return Number.isSafeInteger(start) && Number.isSafeInteger(end) && end >= start - 1 ? { start, end } : null;
}

/**
 * `PATCH /jobs/:id/trace`: appends a chunk of the log at the offset `Content-Range` names. The
 * offset must be the current size (`range-mismatch` with the current size otherwise, and the
 * runner resends from there). Appends to one trace are serialized by a row lock.
 */
@Injectable()
export class AppendTraceUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobsRepository,
    private readonly storage: ObjectStorage,
  ) {}

  async execute(job: CiJobEntity, contentRange: string | undefined, body: Buffer): Promise<AppendTraceOutcome> {
    const range = parseContentRange(contentRange);
    if (!range) return { result: 'missing-range' };
    return this.dataSource.transaction(async (tx): Promise<AppendTraceOutcome> => {
      const current = await this.jobs.lock(tx, job.id);
      if (!current || current.status !== 'running') return { result: 'job-not-running', job: current ?? job };
      const trace = await this.jobs.lockTrace(tx, job.id, traceKey(job.projectId, job.id));
      const size = Number(trace.size);
      if (range.start !== size) return { result: 'range-mismatch', size };
      if (size + body.length > MAX_TRACE_BYTES) return { result: 'range-mismatch', size };
      const newSize = body.length > 0 ? await this.storage.append(trace.storageKey, size, body) : size;
      trace.size = String(newSize);
      await this.jobs.saveTrace(tx, trace);
      current.lastContactAt = new Date();
      await this.jobs.save(tx, current);
      return { result: 'appended', size: newSize, job: current };
    });
  }
}
