import { XMLParser } from 'fast-xml-parser';

export type TestCaseStatus = 'success' | 'failed' | 'skipped' | 'error';

export interface TestCase {
  status: TestCaseStatus;
  name: string;
  classname: string;
  file: string | null;
  execution_time: number;
  system_output: string | null;
  stack_trace: string | null;
}

/** The decompressed size of one JUnit report this service reads (larger: a `suite_error`). */
export const MAX_JUNIT_BYTES = 30 * 1024 * 1024;
/** Test cases read from the reports of one pipeline (more: a `suite_error`). */
export const MAX_TEST_CASES = 200_000;

export class JunitError extends Error {}

const text = (value: unknown): string | null => {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'object') {
    const content = (value as Record<string, unknown>)['#text'];
    return content === undefined ? null : String(content);
  }
  return null;
};

const attribute = (node: Record<string, unknown>, name: string): string | null => {
  const value = node[`@_${name}`];
  return value === undefined || value === null ? null : String(value);
};

const asArray = (value: unknown): Record<string, unknown>[] => {
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : [value];
  return items.map((item) => (item && typeof item === 'object' ? (item as Record<string, unknown>) : {}));
};

/** What a `<failure>`, `<error>` or `<skipped>` says: its message, and its text as the stack trace when both are given. */
function outcome(nodes: unknown): { output: string | null; stack: string | null } {
  const node = Array.isArray(nodes) ? nodes[0] : nodes;
  if (node === undefined) return { output: null, stack: null };
  if (typeof node !== 'object' || node === null) return { output: text(node) || null, stack: null };
  const message = attribute(node as Record<string, unknown>, 'message');
  const body = text(node);
  if (message && body) return { output: message, stack: body };
  return { output: message ?? (body || null), stack: null };
}

function testCase(node: Record<string, unknown>): TestCase {
  const time = Number(attribute(node, 'time') ?? 0);
  let status: TestCaseStatus = 'success';
  let detail: { output: string | null; stack: string | null } = { output: null, stack: null };
  if ('failure' in node) {
    status = 'failed';
    detail = outcome(node.failure);
  } else if ('error' in node) {
    status = 'error';
    detail = outcome(node.error);
  } else if ('skipped' in node) {
    status = 'skipped';
    detail = outcome(node.skipped);
  }
  return {
    status,
    name: attribute(node, 'name') ?? '',
    classname: attribute(node, 'classname') ?? '',
    file: attribute(node, 'file'),
    execution_time: Number.isFinite(time) && time >= 0 ? time : 0,
    system_output: detail.output,
    stack_trace: detail.stack,
  };
}

/** Every `<testcase>` below a node, through nested `<testsuites>` / `<testsuite>`. */
function collect(node: Record<string, unknown>, into: TestCase[], depth: number): void {
  if (depth > 32) throw new JunitError('JUnit XML parsing failed: test suites nested too deeply');
  for (const child of asArray(node.testcase)) {
    into.push(testCase(child));
    if (into.length > MAX_TEST_CASES) throw new JunitError(`JUnit data parsing failed: more than ${MAX_TEST_CASES} test cases`);
  }
  for (const suite of asArray(node.testsuite)) collect(suite, into, depth + 1);
  for (const suites of asArray(node.testsuites)) collect(suites, into, depth + 1);
}

/**
 * The test cases of one JUnit XML document (GitLab's `Gitlab::Ci::Parsers::Test::Junit`: a
 * `<failure>` is `failed`, an `<error>` `error`, a `<skipped>` `skipped`, anything else
 * `success`). A document type declaration (and so any entity definition) is refused, as is
 * anything that is not XML: the caller shows the error as the suite's `suite_error`.
 */
export function parseJunit(xml: string): TestCase[] {
  if (xml.length > MAX_JUNIT_BYTES) throw new JunitError('JUnit data parsing failed: report too large');
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new JunitError('JUnit XML parsing failed: document type declarations are not allowed');
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    processEntities: true,
    htmlEntities: false,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
  });
  let document: Record<string, unknown>;
  try {
    document = parser.parse(xml, true) as Record<string, unknown>;
  } catch (error) {
    throw new JunitError(`JUnit XML parsing failed: ${(error as Error).message.split('\n')[0].slice(0, 200)}`);
  }
  const cases: TestCase[] = [];
  collect(document, cases, 0);
  return cases;
}

export interface TestSuiteFigures {
  total_time: number;
  total_count: number;
  success_count: number;
  failed_count: number;
  skipped_count: number;
  error_count: number;
}

/** Counts and time of a list of test cases (times rounded as GitLab shows them, to the millisecond... of floats). */
export function figuresOf(cases: readonly TestCase[]): TestSuiteFigures {
  const count = (status: TestCaseStatus): number => cases.filter((c) => c.status === status).length;
  return {
    total_time: Math.round(cases.reduce((sum, c) => sum + c.execution_time, 0) * 1e6) / 1e6,
    total_count: cases.length,
    success_count: count('success'),
    failed_count: count('failed'),
    skipped_count: count('skipped'),
    error_count: count('error'),
  };
}
