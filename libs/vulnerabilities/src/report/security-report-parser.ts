import type { Readable } from 'node:stream';
import Parser from 'stream-json/Parser';
import {
  ConfidenceLevel,
  confidenceOf,
  fingerprintPath,
  findingUuid,
  identifierFingerprint,
  locationFingerprint,
  SecurityReportType,
  SeverityLevel,
  severityOf,
  sha1,
} from './finding-fingerprints';

/** A report that cannot be ingested; `message` is what is recorded on the pipeline's scan. */
export class SecurityReportParseError extends Error {}

export interface ParsedScanner {
  externalId: string;
  name: string;
  vendor: string | null;
  version: string | null;
}

export interface ParsedIdentifier {
  externalType: string;
  externalId: string;
  name: string;
  url: string | null;
  fingerprint: string;
}

/** One finding of a report, normalized and fingerprinted (everything the ingestion stores). */
export interface ParsedFinding {
  uuid: string;
  reportType: SecurityReportType;
  name: string;
  description: string | null;
  severity: SeverityLevel;
  confidence: ConfidenceLevel;
  scanner: ParsedScanner;
  /** The first is the primary identifier. */
  identifiers: ParsedIdentifier[];
  location: Record<string, unknown>;
  locationFingerprint: string;
  /** SHA-1 of the compare key (the deprecated `cve` field, else empty), as GitLab keeps it. */
  projectFingerprint: string;
  metadataVersion: string;
  /** The finding as the report wrote it, re-serialized. */
  rawMetadata: string;
}

export interface ParsedSecurityReport {
  version: string;
  findings: ParsedFinding[];
  /** Findings left out (no identifier, no scanner, not an object...), with why; at most `MAX_WARNINGS`. */
  warnings: string[];
  skipped: number;
}

export interface SecurityReportLimits {
  /** Characters of one finding (strings, keys and numbers counted); a larger finding fails the report. */
  maxFindingChars: number;
  /** Findings of one report; more fail the report. */
  maxFindings: number;
  /** Characters of all the findings of one report together (what is held in memory); more fail the report. */
  maxTotalChars?: number;
}

export const DEFAULT_REPORT_LIMITS: Required<SecurityReportLimits> = { maxFindingChars: 1024 * 1024, maxFindings: 20_000, maxTotalChars: 64 * 1024 * 1024 };
/**
 * Deepest nesting of arrays and objects in a report (Ruby's JSON parser, which GitLab uses, has
 * the same `max_nesting`). Deeper JSON is refused while it streams: nothing deeper is built,
 * serialized or sent to PostgreSQL (whose jsonb input overflows its stack on deep values).
 */
export const MAX_REPORT_DEPTH = 100;
const TOO_DEEP = `JSON parsing failed: nested deeper than ${MAX_REPORT_DEPTH} levels`;
const MAX_SCAN_CHARS = 256 * 1024;
const MAX_KEY_CHARS = 1024;
const MAX_WARNINGS = 20;
/** What each value or container costs against a budget besides its characters (bounds many tiny values). */
const TOKEN_COST = 8;

interface Token {
  name: string;
  value?: string;
}

/** NUL and unpaired UTF-16 surrogates: valid in JSON, refused by PostgreSQL text and jsonb. */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `text` with every NUL and lone surrogate replaced by U+FFFD, so that any kept string can be stored. */
export const storableText = (text: string): string => text.replace(UNSTORABLE, '\uFFFD');

/** A budget of characters shared by several builders (all the findings of a report). */
class CharBudget {
  used = 0;
  constructor(
    readonly limit: number,
    private readonly message: string,
  ) {}

  charge(amount: number): void {
    this.used += amount;
    if (this.used > this.limit) throw new SecurityReportParseError(this.message);
  }
}

/** Assembles one JSON value from parser tokens, within a budget of characters and `MAX_REPORT_DEPTH` (counting `baseDepth`). */
class BoundedValueBuilder {
  private readonly stack: Array<{ container: Record<string, unknown> | unknown[]; key: string | null }> = [];
  private current: Record<string, unknown> | unknown[] | null = null;
  private key: string | null = null;
  private text: string | null = null;
  private used = 0;
  done = false;
  value: unknown = undefined;

  constructor(
    private readonly budget: number,
    private readonly what: string,
    private readonly baseDepth: number,
    private readonly shared?: CharBudget,
  ) {}

  private charge(amount: number): void {
    this.used += amount;
    if (this.used > this.budget) throw new SecurityReportParseError(`${this.what} is larger than ${this.budget} characters`);
    this.shared?.charge(amount);
  }

  private save(value: unknown): void {
    this.charge(TOKEN_COST);
    if (this.current === null) {
      this.value = value;
      this.done = true;
    } else if (Array.isArray(this.current)) {
      this.current.push(value);
    } else {
      // A repeated key keeps the last value, as JSON.parse does; `__proto__` stays a plain key.
      Object.defineProperty(this.current, this.key ?? '', { value, enumerable: true, writable: true, configurable: true });
    }
  }

  consume(token: Token): void {
    switch (token.name) {
      case 'startObject':
      case 'startArray': {
        this.charge(TOKEN_COST);
        if (this.baseDepth + this.stack.length + (this.current === null ? 0 : 1) + 1 > MAX_REPORT_DEPTH) throw new SecurityReportParseError(TOO_DEEP);
        const container = token.name === 'startObject' ? {} : [];
        if (this.current !== null) this.stack.push({ container: this.current, key: this.key });
        this.current = container;
        this.key = null;
        return;
      }
      case 'endObject':
      case 'endArray': {
        const finished = this.current;
        const parent = this.stack.pop();
        this.current = parent ? parent.container : null;
        this.key = parent ? parent.key : null;
        this.used -= TOKEN_COST; // `save` charges again
        this.shared?.charge(-TOKEN_COST);
        this.save(finished);
        return;
      }
      case 'startKey':
      case 'startString':
      case 'startNumber':
        this.text = '';
        return;
      case 'stringChunk':
      case 'numberChunk':
        this.charge(token.value?.length ?? 0);
        this.text = (this.text ?? '') + (token.value ?? '');
        return;
      case 'endKey':
        this.key = storableText(this.text ?? '');
        this.text = null;
        return;
      case 'endString':
        this.save(storableText(this.text ?? ''));
        this.text = null;
        return;
      case 'endNumber':
        this.save(Number(this.text));
        this.text = null;
        return;
      case 'nullValue':
        this.save(null);
        return;
      case 'trueValue':
        this.save(true);
        return;
      case 'falseValue':
        this.save(false);
        return;
      default:
        return;
    }
  }
}

const VALUE_STARTS = new Set(['startObject', 'startArray', 'startString', 'startNumber', 'nullValue', 'trueValue', 'falseValue']);

type Capture = { target: 'version' | 'scan' | 'finding'; builder: BoundedValueBuilder };

/**
 * Reads the top level of a security report from the token stream, keeping only `version`,
 * `scan` and the elements of `vulnerabilities` (each assembled alone, within its budget);
 * everything else (`remediations`, `dependency_files`...) is skipped without being built.
 */
class ReportTokenReader {
  /** Containers entered outside a capture: `vulnerabilities` is the array at depth 2. */
  private readonly frames: Array<'object' | 'array' | 'vulnerabilities'> = [];
  private topKey: string | null = null;
  private collectingKey: string | null = null;
  private capture: Capture | null = null;
  private sawRoot = false;
  version = '';
  scan: Record<string, unknown> | null = null;
  readonly rawFindings: unknown[] = [];
  private readonly findingsBudget: CharBudget;

  constructor(private readonly limits: SecurityReportLimits) {
    const total = limits.maxTotalChars ?? DEFAULT_REPORT_LIMITS.maxTotalChars;
    this.findingsBudget = new CharBudget(total, `the report's vulnerabilities are larger than ${total} characters`);
  }

  private enter(frame: 'object' | 'array' | 'vulnerabilities'): void {
    if (this.frames.length + 1 > MAX_REPORT_DEPTH) throw new SecurityReportParseError(TOO_DEEP);
    this.frames.push(frame);
  }

  consume(token: Token): void {
    if (this.capture) {
      this.capture.builder.consume(token);
      if (this.capture.builder.done) this.finishCapture(this.capture);
      return;
    }
    if (VALUE_STARTS.has(token.name)) return this.startValue(token);
    switch (token.name) {
      case 'startKey':
        this.collectingKey = this.frames.length === 1 ? '' : null;
        return;
      case 'stringChunk':
        if (this.collectingKey !== null && this.collectingKey.length < MAX_KEY_CHARS) this.collectingKey += token.value ?? '';
        return;
      case 'endKey':
        if (this.frames.length === 1) this.topKey = this.collectingKey;
        this.collectingKey = null;
        return;
      case 'endObject':
      case 'endArray':
        this.frames.pop();
        return;
      default:
        return;
    }
  }

  private startValue(token: Token): void {
    const depth = this.frames.length;
    if (depth === 0) {
      if (this.sawRoot || token.name !== 'startObject') throw new SecurityReportParseError('Invalid report format');
      this.sawRoot = true;
      this.enter('object');
      return;
    }
    if (depth === 1 && this.topKey === 'version') return this.begin('version', token, MAX_KEY_CHARS);
    if (depth === 1 && this.topKey === 'scan') return this.begin('scan', token, MAX_SCAN_CHARS);
    if (depth === 1 && this.topKey === 'vulnerabilities') {
      if (token.name === 'nullValue') return;
      if (token.name !== 'startArray') throw new SecurityReportParseError('Invalid report format: vulnerabilities is not an array');
      this.enter('vulnerabilities');
      return;
    }
    if (depth === 2 && this.frames[1] === 'vulnerabilities') {
      if (this.rawFindings.length >= this.limits.maxFindings)
        throw new SecurityReportParseError(`the report has more than ${this.limits.maxFindings} vulnerabilities`);
      return this.begin('finding', token, this.limits.maxFindingChars);
    }
    // Skipped: containers are followed only to know the depth; scalars need nothing.
    if (token.name === 'startObject') this.enter('object');
    else if (token.name === 'startArray') this.enter('array');
  }

  private begin(target: Capture['target'], token: Token, budget: number): void {
    const what = target === 'finding' ? `vulnerability ${this.rawFindings.length + 1}` : target;
    const builder = new BoundedValueBuilder(budget, what, this.frames.length, target === 'finding' ? this.findingsBudget : undefined);
    builder.consume(token);
    const capture = { target, builder };
    if (builder.done) this.finishCapture(capture);
    else this.capture = capture;
  }

  private finishCapture(capture: Capture): void {
    this.capture = null;
    const { value } = capture.builder;
    if (capture.target === 'version') this.version = typeof value === 'string' ? value : value === null ? '' : String(value);
    else if (capture.target === 'scan') this.scan = isObject(value) ? value : null;
    else this.rawFindings.push(value);
  }

  finish(): void {
    if (!this.sawRoot) throw new SecurityReportParseError('Invalid report format');
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null);

function scannerOf(value: unknown): ParsedScanner | null {
  if (!isObject(value)) return null;
  const externalId = text(value.id);
  const name = text(value.name);
  if (externalId === null || name === null) return null;
  const vendor = isObject(value.vendor) ? text(value.vendor.name) : null;
  return {
    externalId: externalId.slice(0, 255),
    name: name.slice(0, 255),
    vendor: vendor?.slice(0, 255) ?? null,
    version: text(value.version)?.slice(0, 255) ?? null,
  };
}

function identifiersOf(value: unknown): ParsedIdentifier[] {
  if (!Array.isArray(value)) return [];
  const identifiers: ParsedIdentifier[] = [];
  for (const item of value) {
    if (!isObject(item)) continue;
    const externalType = text(item.type);
    const externalId = text(item.value);
    const name = text(item.name);
    if (externalType === null || externalId === null || name === null) continue;
    identifiers.push({
      externalType: externalType.slice(0, 255),
      externalId: externalId.slice(0, 255),
      name: name.slice(0, 2048),
      url: text(item.url)?.slice(0, 2048) ?? null,
      fingerprint: identifierFingerprint(externalType, externalId),
    });
  }
  return identifiers;
}

export interface NormalizeContext {
  reportType: SecurityReportType;
  projectId: number;
  version: string;
  /** The report's `scan.scanner`, used when a finding names no scanner of its own. */
  scanScanner: ParsedScanner | null;
}

/**
 * One raw report finding → the stored finding, as GitLab's `Parsers::Security::Common` builds
 * it: name from `message`/`name` (else `<identifier> in <path>`), levels lowercased (unknown
 * values become `unknown`), scanner from the finding or the scan, identifiers with their
 * fingerprints, the location fingerprint of the report type and the v5 UUID. A finding without
 * scanner or identifier is not valid (GitLab drops it too): the reason is returned instead.
 */
export function normalizeFinding(raw: unknown, context: NormalizeContext): ParsedFinding | string {
  if (!isObject(raw)) return 'not an object';
  const identifiers = identifiersOf(raw.identifiers);
  if (identifiers.length === 0) return 'no valid identifiers';
  const scanner = scannerOf(raw.scanner) ?? context.scanScanner;
  if (!scanner) return 'no scanner (neither on the vulnerability nor in scan.scanner)';
  const location = isObject(raw.location) ? raw.location : {};
  const fingerprint = locationFingerprint(context.reportType, location);
  const primary = identifiers[0];
  const path = fingerprintPath(context.reportType, location);
  const named = identifiers.find((i) => i.externalType.toLowerCase() === 'cve') ?? identifiers.find((i) => i.externalType.toLowerCase() === 'cwe') ?? primary;
  const name = text(raw.message) ?? text(raw.name) ?? (path ? `${named.name} in ${path}` : named.name);
  const compareKey = typeof raw.cve === 'string' ? raw.cve : '';
  return {
    uuid: findingUuid(context.reportType, primary.fingerprint, fingerprint, context.projectId),
    reportType: context.reportType,
    name: name.slice(0, 255),
    description: text(raw.description),
    severity: severityOf(raw.severity),
    confidence: confidenceOf(raw.confidence),
    scanner,
    identifiers,
    location,
    locationFingerprint: fingerprint,
    projectFingerprint: createProjectFingerprint(compareKey),
    metadataVersion: context.version.slice(0, 255),
    rawMetadata: JSON.stringify(raw),
  };
}

const createProjectFingerprint = (compareKey: string): string => sha1(compareKey);

/**
 * Parses a security report (GitLab's security report JSON schema: `version`, `scan`,
 * `vulnerabilities[]`) from a stream, without holding more than one finding's JSON at a time
 * beyond the normalized findings. Throws `SecurityReportParseError` with the message to record
 * ('JSON parsing failed', 'Invalid report format', a limit) on anything it cannot ingest; never
 * anything else for bad input.
 */
export async function parseSecurityReport(
  source: Readable,
  context: { reportType: SecurityReportType; projectId: number },
  limits: SecurityReportLimits = DEFAULT_REPORT_LIMITS,
): Promise<ParsedSecurityReport> {
  const parser = new Parser({ packKeys: false, packStrings: false, packNumbers: false, streamKeys: true, streamStrings: true, streamNumbers: true });
  const reader = new ReportTokenReader(limits);
  source.on('error', (error) => parser.destroy(error));
  source.pipe(parser);
  try {
    for await (const token of parser as AsyncIterable<Token>) reader.consume(token);
    reader.finish();
  } catch (error) {
    source.unpipe(parser);
    source.destroy();
    parser.destroy();
    if (error instanceof SecurityReportParseError) throw error;
    throw new SecurityReportParseError('JSON parsing failed');
  }
  const scanScanner = reader.scan ? scannerOf(reader.scan.scanner) : null;
  const findings: ParsedFinding[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  let skipped = 0;
  reader.rawFindings.forEach((raw, index) => {
    const finding = normalizeFinding(raw, { ...context, version: reader.version, scanScanner });
    if (typeof finding === 'string') {
      skipped += 1;
      if (warnings.length < MAX_WARNINGS) warnings.push(`vulnerability ${index + 1} skipped: ${finding}`);
      return;
    }
    // One finding per UUID: a report listing the same finding twice updates it once.
    if (seen.has(finding.uuid)) return;
    seen.add(finding.uuid);
    findings.push(finding);
  });
  return { version: reader.version, findings, warnings, skipped };
}
