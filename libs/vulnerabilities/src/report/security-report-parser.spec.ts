import { Readable } from 'node:stream';
import {
  dockerImageNameWithoutTag,
  findingUuid,
  identifierFingerprint,
  locationFingerprint,
  locationFingerprintData,
  sha1,
  uuidV5,
} from './finding-fingerprints';
import { parseSecurityReport, SecurityReportParseError } from './security-report-parser';

const sastReport = {
  version: '15.0.7',
  vulnerabilities: [
    {
      id: 'e1f3c5d1-0000-4000-8000-000000000001',
      category: 'sast',
      name: 'Predictable pseudorandom number generator',
      description: 'Math.random is not cryptographically secure',
      severity: 'Medium',
      confidence: 'High',
      location: { file: 'src/token.js', start_line: 12, end_line: 12 },
      identifiers: [
        { type: 'semgrep_id', name: 'eslint.detect-pseudoRandomBytes', value: 'eslint.detect-pseudoRandomBytes' },
        { type: 'cwe', name: 'CWE-338', value: '338', url: 'https://cwe.mitre.org/data/definitions/338.html' },
      ],
    },
    {
      id: 'e1f3c5d1-0000-4000-8000-000000000002',
      severity: 'Critical',
      location: { file: 'src/db.js', start_line: 4 },
      identifiers: [{ type: 'cwe', name: 'CWE-89', value: '89' }],
      scanner: { id: 'own', name: 'Own scanner' },
    },
  ],
  dependency_files: [{ path: 'package-lock.json', dependencies: [{ package: { name: 'x' }, version: '1' }] }],
  scan: {
    type: 'sast',
    status: 'success',
    scanner: { id: 'semgrep', name: 'Semgrep', version: '1.0', vendor: { name: 'GitLab' } },
    analyzer: { id: 'semgrep', name: 'Semgrep', version: '1', vendor: { name: 'GitLab' } },
  },
};

/** A stream that hands the text over in small chunks, as a file read would. */
const streamOf = (text: string, chunk = 7): Readable =>
  Readable.from(
    (function* () {
      for (let i = 0; i < text.length; i += chunk) yield Buffer.from(text.slice(i, i + chunk));
    })(),
  );

const parse = (text: string, limits?: { maxFindingChars: number; maxFindings: number; maxTotalChars?: number }) =>
  parseSecurityReport(streamOf(text), { reportType: 'sast', projectId: 7 }, limits);

describe('finding fingerprints', () => {
  it('computes v5 UUIDs as RFC 4122 does', () => {
    // RFC 4122 example namespace (DNS) and the well-known result for "python.org".
    expect(uuidV5('python.org', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('886313e1-3b8a-5372-9b90-0c9aee199e5d');
  });

  it('tracks each report type by its own location text', () => {
    expect(locationFingerprintData('sast', { file: 'a.js', start_line: 3 })).toBe('a.js:3:');
    expect(locationFingerprintData('secret_detection', { file: 'a.env', start_line: 1, end_line: 1 })).toBe('a.env:1:1');
    expect(locationFingerprintData('dependency_scanning', { file: 'yarn.lock', dependency: { package: { name: 'lodash' }, version: '4.17.20' } })).toBe(
      'yarn.lock:lodash',
    );
    expect(locationFingerprintData('container_scanning', { image: 'registry/app:3.1.0', dependency: { package: { name: 'openssl' } } })).toBe(
      'registry/app:3.1.0:openssl',
    );
    expect(locationFingerprintData('container_scanning', { image: 'registry/app:main', dependency: { package: { name: 'openssl' } } })).toBe(
      'registry/app:openssl',
    );
    expect(locationFingerprintData('dast', { hostname: 'http://x', path: '/login', method: 'POST', param: 'user' })).toBe('/login:POST:user');
    expect(dockerImageNameWithoutTag(`app:${'a'.repeat(40)}`)).toBe('app');
    expect(locationFingerprint('sast', { file: 'a.js', start_line: 3 })).toBe(sha1('a.js:3:'));
  });
});

describe(parseSecurityReport.name, () => {
  it('normalizes findings: levels, scanner of the scan, identifiers, fingerprints and UUIDs', async () => {
    const report = await parse(JSON.stringify(sastReport));
    expect(report.version).toBe('15.0.7');
    expect(report.skipped).toBe(0);
    expect(report.findings).toHaveLength(2);
    const [first, second] = report.findings;
    const primary = identifierFingerprint('semgrep_id', 'eslint.detect-pseudoRandomBytes');
    const location = sha1('src/token.js:12:12');
    expect(first).toMatchObject({
      reportType: 'sast',
      name: 'Predictable pseudorandom number generator',
      description: 'Math.random is not cryptographically secure',
      severity: 'medium',
      confidence: 'high',
      scanner: { externalId: 'semgrep', name: 'Semgrep', vendor: 'GitLab', version: '1.0' },
      locationFingerprint: location,
      projectFingerprint: sha1(''),
      metadataVersion: '15.0.7',
      uuid: findingUuid('sast', primary, location, 7),
    });
    expect(first.identifiers.map((i) => [i.externalType, i.externalId, i.fingerprint])).toEqual([
      ['semgrep_id', 'eslint.detect-pseudoRandomBytes', primary],
      ['cwe', '338', identifierFingerprint('cwe', '338')],
    ]);
    expect(JSON.parse(first.rawMetadata)).toEqual(sastReport.vulnerabilities[0]);
    // A finding's own scanner wins; no message nor name: "<identifier> in <file>"; no confidence: unknown.
    expect(second).toMatchObject({
      name: 'CWE-89 in src/db.js',
      severity: 'critical',
      confidence: 'unknown',
      scanner: { externalId: 'own', name: 'Own scanner', vendor: null },
    });
  });

  it('gives the same finding the same UUID in every pipeline, and another project another UUID', async () => {
    const again = await parse(JSON.stringify(sastReport));
    const other = await parseSecurityReport(streamOf(JSON.stringify(sastReport)), { reportType: 'sast', projectId: 8 });
    const first = await parse(JSON.stringify(sastReport));
    expect(again.findings.map((f) => f.uuid)).toEqual(first.findings.map((f) => f.uuid));
    expect(other.findings[0].uuid).not.toBe(first.findings[0].uuid);
  });

  it('reads the scanner from a scan written after the vulnerabilities, and skips invalid findings with a warning', async () => {
    const text = JSON.stringify({
      vulnerabilities: [
        { severity: 'high', identifiers: [], location: {} },
        'oops',
        { name: 'x', identifiers: [{ type: 'cve', name: 'CVE-1', value: 'CVE-1' }], location: { file: 'f' } },
      ],
      version: 15,
      scan: { scanner: { id: 'gitleaks', name: 'Gitleaks' } },
    });
    const report = await parse(text);
    expect(report.version).toBe('15');
    expect(report.skipped).toBe(2);
    expect(report.warnings).toEqual(['vulnerability 1 skipped: no valid identifiers', 'vulnerability 2 skipped: not an object']);
    expect(report.findings).toEqual([expect.objectContaining({ name: 'x', scanner: expect.objectContaining({ externalId: 'gitleaks' }) })]);
  });

  it('keeps one finding per UUID', async () => {
    const duplicate = { ...sastReport, vulnerabilities: [sastReport.vulnerabilities[0], { ...sastReport.vulnerabilities[0], name: 'again' }] };
    expect((await parse(JSON.stringify(duplicate))).findings).toHaveLength(1);
  });

  it('accepts a report without vulnerabilities or with null', async () => {
    expect((await parse('{"version":"15.0.0"}')).findings).toEqual([]);
    expect((await parse('{"version":"15.0.0","vulnerabilities":null}')).findings).toEqual([]);
  });

  it.each([
    ['not JSON', '{"version": "15", "vulnerabilities": [', 'JSON parsing failed'],
    ['garbage', 'hello', 'JSON parsing failed'],
    ['empty', '', 'JSON parsing failed'],
    ['an array', '[1, 2]', 'Invalid report format'],
    ['a string', '"x"', 'Invalid report format'],
    ['vulnerabilities not an array', '{"vulnerabilities": {"a": 1}}', 'Invalid report format: vulnerabilities is not an array'],
    ['trailing garbage', '{"vulnerabilities": []} x', 'JSON parsing failed'],
  ])('refuses %s with a recordable message', async (_what, text, message) => {
    await expect(parse(text)).rejects.toThrow(new SecurityReportParseError(message));
  });

  it('bounds one finding and the number of findings', async () => {
    const huge = JSON.stringify({ vulnerabilities: [{ description: 'x'.repeat(5000), identifiers: [{ type: 'a', name: 'a', value: 'a' }] }] });
    await expect(parse(huge, { maxFindingChars: 1000, maxFindings: 10 })).rejects.toThrow('vulnerability 1 is larger than 1000 characters');
    const many = JSON.stringify({ vulnerabilities: Array.from({ length: 11 }, () => ({})) });
    await expect(parse(many, { maxFindingChars: 1000, maxFindings: 10 })).rejects.toThrow('the report has more than 10 vulnerabilities');
  });

  it('skips large parts it does not keep without building them', async () => {
    const text = JSON.stringify({ remediations: [{ diff: 'y'.repeat(200_000) }], vulnerabilities: [sastReport.vulnerabilities[0]], scan: sastReport.scan });
    const report = await parse(text, { maxFindingChars: 10_000, maxFindings: 10 });
    expect(report.findings).toHaveLength(1);
  });

  it('replaces NUL characters and lone surrogates, which PostgreSQL text and jsonb refuse, in every kept string and key', async () => {
    const finding = {
      name: 'nul\u0000name',
      description: 'lone \ud800 high and \udc00 low, a pair \ud83d\ude00 kept',
      location: { file: 'a\u0000.js', start_line: 1, 'k\u0000ey': 'v\udfff' },
      identifiers: [{ type: 'cwe', name: 'CWE-\u00001', value: '1' }],
      scanner: { id: 's\u0000', name: 'S' },
    };
    const report = await parse(JSON.stringify({ version: '15\u0000', vulnerabilities: [finding] }));
    const [parsed] = report.findings;
    const everything = JSON.stringify(report);
    expect(everything).not.toMatch(/\\u0000|\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/);
    expect(parsed.rawMetadata).not.toContain('\u0000');
    expect(parsed.name).toBe('nul\uFFFDname');
    expect(parsed.description).toBe('lone \uFFFD high and \uFFFD low, a pair \ud83d\ude00 kept');
    expect(parsed.location).toEqual({ file: 'a\uFFFD.js', start_line: 1, 'k\uFFFDey': 'v\uFFFD' });
    expect(parsed.scanner.externalId).toBe('s\uFFFD');
    expect(report.version).toBe('15\uFFFD');
  });

  it("refuses JSON nested deeper than 100 levels (in a finding or in skipped parts) as GitLab's parser does, never overflowing the stack", async () => {
    const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    const inFinding = `{"vulnerabilities":[{"identifiers":[{"type":"a","name":"a","value":"a"}],"location":{"file":"f"},"details":${deep(100_000)}}]}`;
    await expect(parse(inFinding)).rejects.toThrow(new SecurityReportParseError('JSON parsing failed: nested deeper than 100 levels'));
    const skipped = `{"remediations":${deep(1_000_000)},"vulnerabilities":[]}`;
    await expect(parse(skipped)).rejects.toThrow(new SecurityReportParseError('JSON parsing failed: nested deeper than 100 levels'));
    // 100 levels are fine.
    const fine = `{"vulnerabilities":[{"scanner":{"id":"s","name":"S"},"identifiers":[{"type":"a","name":"a","value":"a"}],"location":{"file":"f"},"details":${deep(97)}}]}`;
    expect((await parse(fine)).findings).toHaveLength(1);
  });

  it('bounds the characters of all the findings kept, not only of each one', async () => {
    const one = { description: 'x'.repeat(400), scanner: { id: 's', name: 'S' }, identifiers: [{ type: 'a', name: 'a', value: 'a' }], location: { file: 'f' } };
    const text = JSON.stringify({ vulnerabilities: Array.from({ length: 20 }, (_, i) => ({ ...one, location: { file: `f${i}` } })) });
    await expect(parse(text, { maxFindingChars: 1000, maxFindings: 100, maxTotalChars: 5000 })).rejects.toThrow(
      "the report's vulnerabilities are larger than 5000 characters",
    );
    expect((await parse(text, { maxFindingChars: 1000, maxFindings: 100, maxTotalChars: 20_000 })).findings).toHaveLength(20);
  });

  it('fails as a parse error when the source stream fails', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('disk gone'));
      },
    });
    await expect(parseSecurityReport(failing, { reportType: 'sast', projectId: 1 })).rejects.toThrow(SecurityReportParseError);
  });
});
