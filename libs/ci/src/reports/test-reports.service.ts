import { Injectable } from '@nestjs/common';
import { promisify } from 'node:util';
import { gunzip as gunzipCallback } from 'node:zlib';
import type { Readable } from 'node:stream';
import { ObjectStorage } from '../storage/object-storage';
import { TestReportsRepository } from './test-reports.repository';
import { figuresOf, JunitError, MAX_JUNIT_BYTES, MAX_TEST_CASES, parseJunit, TestCase, TestSuiteFigures } from './junit';

const gunzip = promisify(gunzipCallback);

export interface TestSuite extends TestSuiteFigures {
  name: string;
  build_ids: number[];
  suite_error: string | null;
  test_cases: TestCase[];
}

export interface TestReport extends TestSuiteFigures {
  test_suites: TestSuite[];
}

/** Reads a stream into memory, refusing more than `max` bytes. */
async function readBounded(stream: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      stream.destroy();
      throw new JunitError('JUnit data parsing failed: report too large');
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * The test report of a pipeline (`GET …/pipelines/:id/test_report` and `…/test_report_summary`):
 * the `junit` report artifacts of its latest jobs and of its child pipelines' jobs, one suite
 * per job name (several jobs of one name merge, as GitLab groups them). A report that cannot be
 * read (not XML, a DTD, gzip or size beyond the bounds) leaves its suite with a `suite_error`.
 */
@Injectable()
export class TestReportsService {
  constructor(
    private readonly repository: TestReportsRepository,
    private readonly storage: ObjectStorage,
  ) {}

  async build(pipelineId: number): Promise<TestReport> {
    const rows = await this.repository.junitFiles(pipelineId);
    const suites = new Map<string, TestSuite>();
    let total = 0;
    for (const row of rows) {
      const suite = suites.get(row.name) ?? { name: row.name, build_ids: [], suite_error: null, test_cases: [], ...figuresOf([]) };
      suites.set(row.name, suite);
      if (!suite.build_ids.includes(row.job_id)) suite.build_ids.push(row.job_id);
      if (suite.suite_error) continue;
      try {
        const cases = parseJunit(await this.read(row.storage_key, row.file_format));
        total += cases.length;
        if (total > MAX_TEST_CASES) throw new JunitError(`JUnit data parsing failed: more than ${MAX_TEST_CASES} test cases`);
        suite.test_cases.push(...cases);
      } catch (error) {
        if (!(error instanceof JunitError)) throw error;
        suite.suite_error = error.message;
        suite.test_cases = [];
      }
    }
    const list = [...suites.values()].map((suite) => ({ ...suite, ...figuresOf(suite.test_cases) }));
    return { ...figuresOf(list.flatMap((suite) => suite.test_cases)), test_suites: list };
  }

  private async read(key: string, format: string): Promise<string> {
    const object = await this.storage.get(key);
    if (!object) throw new JunitError('JUnit data parsing failed: the report file is missing');
    const raw = await readBounded(object.stream, MAX_JUNIT_BYTES);
    if (format !== 'gzip') return raw.toString('utf8');
    try {
      return (await gunzip(raw, { maxOutputLength: MAX_JUNIT_BYTES })).toString('utf8');
    } catch (error) {
      const code = (error as { code?: string }).code;
      throw new JunitError(
        code === 'ERR_BUFFER_TOO_LARGE' ? 'JUnit data parsing failed: report too large' : 'JUnit data parsing failed: the report is not valid gzip',
      );
    }
  }
}

/** A suite's name and counts, as both report views show them. */
const suiteTotals = (suite: TestReport['test_suites'][number]) => ({
  name: suite.name,
  total_time: suite.total_time,
  total_count: suite.total_count,
  success_count: suite.success_count,
  failed_count: suite.failed_count,
  skipped_count: suite.skipped_count,
  error_count: suite.error_count,
});

/** `GET …/test_report`: every suite with its test cases. */
export function presentTestReport(report: TestReport): Record<string, unknown> {
  return {
    total_time: report.total_time,
    total_count: report.total_count,
    success_count: report.success_count,
    failed_count: report.failed_count,
    skipped_count: report.skipped_count,
    error_count: report.error_count,
    test_suites: report.test_suites.map((suite) => ({
      ...suiteTotals(suite),
      suite_error: suite.suite_error,
      test_cases: suite.test_cases.map((c) => ({ ...c, attachment_url: null, recent_failures: null })),
    })),
  };
}

/** `GET …/test_report_summary`: totals and suites without their test cases, with the jobs that made them. */
export function presentTestReportSummary(report: TestReport): Record<string, unknown> {
  return {
    total: {
      time: report.total_time,
      count: report.total_count,
      success: report.success_count,
      failed: report.failed_count,
      skipped: report.skipped_count,
      error: report.error_count,
      suite_error: report.test_suites.find((suite) => suite.suite_error)?.suite_error ?? null,
    },
    test_suites: report.test_suites.map((suite) => ({
      ...suiteTotals(suite),
      build_ids: suite.build_ids,
      suite_error: suite.suite_error,
    })),
  };
}
