import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Gitlab } from '@gitbeaker/rest';
import { eventually } from '@app/testing';
import { cloneUrl, GitClient } from './support/git-client';
import { addProjectMember, api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

const CONFIG = `
sast:
  script: [semgrep --json > gl-sast-report.json]
  artifacts:
    reports:
      sast: gl-sast-report.json
`;

const finding = (file: string, line: number, rule: string, severity = 'High') => ({
  id: `${file}-${line}`,
  name: `${rule} in ${file}`,
  description: `${rule} found`,
  severity,
  confidence: 'Medium',
  location: { file, start_line: line, end_line: line },
  identifiers: [
    { type: 'semgrep_id', name: rule, value: rule },
    { type: 'cwe', name: 'CWE-89', value: '89', url: 'https://cwe.mitre.org/data/definitions/89.html' },
  ],
});

const report = (...vulnerabilities: object[]) =>
  JSON.stringify({
    version: '15.0.7',
    vulnerabilities,
    scan: {
      type: 'sast',
      status: 'success',
      start_time: '2026-11-25T00:00:00',
      end_time: '2026-11-25T00:00:10',
      scanner: { id: 'semgrep', name: 'Semgrep', version: '1.2', vendor: { name: 'GitLab' } },
      analyzer: { id: 'semgrep', name: 'Semgrep', version: '1.2', vendor: { name: 'GitLab' } },
    },
  });

const SQLI = finding('app/db.py', 10, 'python.sqli');
const XSS = finding('app/views.py', 42, 'python.xss', 'Critical');

/** Vulnerabilities (ULTIMATE) over HTTP: findings from a real pipeline's SAST artifact (runner protocol), the API, its errors and state machine. */
describe('Vulnerabilities', () => {
  let gw: TestGateway;
  let git: GitClient;
  let work: string;
  let runnerToken: string;
  let project: { id: number; path_with_namespace: string; name: string };
  const users: Record<string, { id: number; username: string; token: string }> = {};
  const call = (who: string | null, method: string, path: string, body?: unknown) =>
    api(gw.baseUrl, method, `/api/v4${path}`, { token: who === null ? undefined : users[who].token, body });
  const client = (who: string) => new Gitlab({ host: gw.baseUrl, token: users[who].token, rateLimits: {} });
  const outbox = async (type: string) =>
    ((await gw.dataSource.query(`SELECT payload FROM outbox_events WHERE payload->>'type' = $1 ORDER BY seq`, [type])) as { payload: any }[]).map(
      (r) => r.payload,
    );

  const requestJob = () =>
    api(gw.baseUrl, 'POST', '/api/v4/jobs/request', {
      body: { token: runnerToken, info: { name: 'gitlab-runner', version: '17.5.0', platform: 'linux', architecture: 'amd64', executor: 'shell' } },
    });
  const upload = async (jobId: number, jobToken: string, content: Buffer, query: string, filename: string) => {
    const form = new FormData();
    form.append('file', new Blob([content]), filename);
    const response = await fetch(`${gw.baseUrl}/api/v4/jobs/${jobId}/artifacts?${query}`, { method: 'POST', headers: { 'JOB-TOKEN': jobToken }, body: form });
    return response.status;
  };

  /** Pushes to main, runs the `sast` job as a runner (uploading `content` as its SAST report), finishes it, waits for the ingestion. */
  async function runPipeline(content: string, format: 'raw' | 'gzip' = 'raw', ref = 'main'): Promise<{ pipelineId: number; job: any }> {
    writeFileSync(join(work, 'NOTES'), `${Date.now()}-${Math.random()}`);
    await git.ok(['add', '.'], { cwd: work });
    await git.ok(['commit', '-q', '-m', 'scan again'], { cwd: work });
    await git.ok(['push', '-q', 'origin', `HEAD:refs/heads/${ref}`], { cwd: work });
    const job = await eventually(
      async () => {
        const answer = await requestJob();
        return answer.status === 201 ? answer.body : undefined;
      },
      'the sast job',
      60_000,
    );
    const bytes = format === 'gzip' ? gzipSync(content) : Buffer.from(content);
    expect(await upload(job.id, job.token, bytes, `artifact_type=sast&artifact_format=${format}`, 'gl-sast-report.json')).toBe(201);
    expect((await api(gw.baseUrl, 'PUT', `/api/v4/jobs/${job.id}`, { body: { token: job.token, state: 'success' } })).status).toBe(200);
    const [{ pipeline_id: pipelineId }] = await gw.dataSource.query('SELECT pipeline_id FROM ci_jobs WHERE id = $1', [job.id]);
    if (ref === 'main')
      await eventually(
        async () => ((await outbox('security_reports.ingested')).some((e) => e.data.pipeline_id === pipelineId) ? true : undefined),
        `ingestion of pipeline ${pipelineId}`,
        30_000,
      );
    return { pipelineId, job };
  }

  const findingIdOf = async (file: string): Promise<number> =>
    (await gw.dataSource.query(`SELECT id FROM vulnerability_findings WHERE project_id = $1 AND location->>'file' = $2`, [project.id, file]))[0]?.id;

  beforeAll(async () => {
    gw = await startTestGateway('vulnerabilities', { CI_LONG_POLL_SECONDS: '1' });
    git = new GitClient();
    for (const name of ['owner', 'dev', 'rep', 'stranger']) users[name] = await createUserWithToken(gw, `${name}-vulns`);
    const created = await call('owner', 'POST', '/projects', { name: 'Scanner', initialize_with_readme: true, visibility: 'private' });
    if (created.status !== 201) throw new Error(created.text);
    project = created.body;
    await addProjectMember(gw, project.id, users.dev.id, 30);
    await addProjectMember(gw, project.id, users.rep.id, 20);
    const runner = await call('owner', 'POST', '/user/runners', { runner_type: 'project_type', project_id: project.id });
    runnerToken = runner.body.token;
    work = git.dir('scanner');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, project.path_with_namespace, users.owner), work]);
    writeFileSync(join(work, '.gitlab-ci.yml'), CONFIG);
  }, 90_000);
  afterAll(async () => {
    git?.cleanup();
    await gw?.close();
  });

  let vulnerabilityId: number;

  it('ingests the SAST report a runner uploads for a default-branch pipeline into findings with scanners and identifiers', async () => {
    const { pipelineId, job } = await runPipeline(report(SQLI, XSS));
    // The job asks the runner for the report, and the upload is kept as a `sast` artifact.
    expect(job.artifacts).toEqual([
      expect.objectContaining({ name: 'sast', paths: ['gl-sast-report.json'], when: 'always', artifact_type: 'sast', artifact_format: 'raw' }),
    ]);
    expect(await gw.dataSource.query('SELECT file_type, file_format, filename FROM ci_job_artifacts WHERE job_id = $1', [job.id])).toEqual([
      { file_type: 'sast', file_format: 'raw', filename: 'gl-sast-report.json' },
    ]);
    expect(await gw.dataSource.query('SELECT scan_type, status, findings_count, errors FROM security_scans WHERE pipeline_id = $1', [pipelineId])).toEqual([
      { scan_type: 'sast', status: 'succeeded', findings_count: 2, errors: [] },
    ]);

    const findings = await gw.dataSource.query(
      `SELECT f.name, f.severity, f.confidence, f.report_type, s.external_id AS scanner, i.external_type, i.external_id, f.metadata_version, f.latest_pipeline_id
         FROM vulnerability_findings f JOIN vulnerability_scanners s ON s.id = f.scanner_id JOIN vulnerability_identifiers i ON i.id = f.primary_identifier_id
        WHERE f.project_id = $1 ORDER BY f.name`,
      [project.id],
    );
    expect(findings).toEqual([
      {
        name: 'python.sqli in app/db.py',
        severity: 'high',
        confidence: 'medium',
        report_type: 'sast',
        scanner: 'semgrep',
        external_type: 'semgrep_id',
        external_id: 'python.sqli',
        metadata_version: '15.0.7',
        latest_pipeline_id: pipelineId,
      },
      {
        name: 'python.xss in app/views.py',
        severity: 'critical',
        confidence: 'medium',
        report_type: 'sast',
        scanner: 'semgrep',
        external_type: 'semgrep_id',
        external_id: 'python.xss',
        metadata_version: '15.0.7',
        latest_pipeline_id: pipelineId,
      },
    ]);
    // The CWE identifier is shared by both findings: stored once, linked twice.
    expect(await gw.dataSource.query(`SELECT count(*)::int AS n FROM vulnerability_identifiers WHERE project_id = $1`, [project.id])).toEqual([{ n: 3 }]);
    expect(await gw.dataSource.query(`SELECT count(*)::int AS n FROM vulnerability_finding_identifiers`)).toEqual([{ n: 4 }]);
    const [event] = await outbox('security_reports.ingested');
    expect(event).toMatchObject({
      project_id: project.id,
      data: {
        pipeline_id: pipelineId,
        findings_created: 2,
        findings_updated: 0,
        scans: [{ job_id: job.id, scan_type: 'sast', status: 'succeeded', findings_count: 2, errors: [] }],
      },
    });
  }, 120_000);

  it('lists the findings with scanner and identifiers, most severe first, with filters', async () => {
    const listed = await call('dev', 'GET', `/projects/${project.id}/vulnerability_findings`);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('x-total')).toBe('2');
    expect(listed.body.map((f: { name: string }) => f.name)).toEqual(['python.xss in app/views.py', 'python.sqli in app/db.py']);
    expect(listed.body[1]).toMatchObject({
      id: await findingIdOf('app/db.py'),
      report_type: 'sast',
      severity: 'high',
      confidence: 'medium',
      state: 'detected',
      vulnerability_id: null,
      scanner: { external_id: 'semgrep', name: 'Semgrep', vendor: 'GitLab' },
      identifiers: [
        { external_type: 'semgrep_id', external_id: 'python.sqli', name: 'python.sqli', url: null },
        { external_type: 'cwe', external_id: '89', name: 'CWE-89', url: 'https://cwe.mitre.org/data/definitions/89.html' },
      ],
      location: { file: 'app/db.py', start_line: 10, end_line: 10 },
      project: { id: project.id, name: 'Scanner', full_path: `/${project.path_with_namespace}` },
    });
    expect((await call('dev', 'GET', `/projects/${project.id}/vulnerability_findings?severity[]=high`)).body.map((f: { name: string }) => f.name)).toEqual([
      'python.sqli in app/db.py',
    ]);
    expect((await call('dev', 'GET', `/projects/${project.id}/vulnerability_findings?report_type=dast,dependency_scanning`)).body).toEqual([]);
    expect((await call('dev', 'GET', `/projects/${project.id}/vulnerability_findings?severity=urgent`)).status).toBe(400);
    expect((await call('rep', 'GET', `/projects/${project.id}/vulnerability_findings`)).status).toBe(403);
    expect((await call('stranger', 'GET', `/projects/${project.id}/vulnerability_findings`)).status).toBe(404);
  });

  it('creates a vulnerability from a finding with @gitbeaker/rest, and lists it paginated with project and finding', async () => {
    const findingId = (await call('dev', 'GET', `/projects/${project.id}/vulnerability_findings?severity=high`)).body[0].id as number;
    expect(findingId).toBe(await findingIdOf('app/db.py'));
    const created = await client('owner').ProjectVulnerabilities.create(project.id, findingId);
    vulnerabilityId = created.id as number;
    expect(created).toMatchObject({
      title: 'python.sqli in app/db.py',
      description: 'python.sqli found',
      state: 'opened',
      severity: 'high',
      confidence: 'medium',
      report_type: 'sast',
      author_id: users.owner.id,
      project_default_branch: 'main',
      resolved_on_default_branch: false,
      confirmed_at: null,
      resolved_at: null,
      resolved_by_id: null,
      dismissed_at: null,
      dismissed_by_id: null,
      due_date: null,
      start_date: null,
      last_edited_at: null,
      last_edited_by_id: null,
      updated_by_id: null,
      project: {
        id: project.id,
        name: 'Scanner',
        path: project.path_with_namespace.split('/')[1],
        path_with_namespace: project.path_with_namespace,
        name_with_namespace: expect.stringContaining('Scanner'),
        description: null,
        created_at: expect.any(String),
      },
      finding: {
        id: findingId,
        vulnerability_id: created.id,
        project_id: project.id,
        report_type: 'sast',
        name: 'python.sqli in app/db.py',
        severity: 'high',
        confidence: 'medium',
        metadata_version: '15.0.7',
        uuid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        location_fingerprint: expect.stringMatching(/^[0-9a-f]{40}$/),
        project_fingerprint: expect.stringMatching(/^[0-9a-f]{40}$/),
        primary_identifier_id: expect.any(Number),
        scanner_id: expect.any(Number),
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    expect(JSON.parse(created.finding.raw_metadata)).toEqual(SQLI);

    const listed = await client('dev').ProjectVulnerabilities.all(project.id);
    expect(listed.map((v) => v.id)).toEqual([vulnerabilityId]);
    const page = await call('dev', 'GET', `/projects/${project.id}/vulnerabilities`);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-per-page')).toBe('20');
    expect(page.headers.get('x-total')).toBe('1');
    expect(page.body[0]).toEqual(created);
    expect((await call('dev', 'GET', `/projects/${encodeURIComponent(project.path_with_namespace)}/vulnerabilities?per_page=1&page=2`)).body).toEqual([]);
    expect(await outbox('vulnerability.created')).toEqual([
      expect.objectContaining({
        actor: users.owner.id,
        project_id: project.id,
        data: expect.objectContaining({ vulnerability_id: vulnerabilityId, finding_id: findingId, state: 'opened', from: null }),
      }),
    ]);
  });

  it('answers the error rows of the spec', async () => {
    const attached = await findingIdOf('app/db.py');
    const body = { message: { base: ['finding is not found or is already attached to a vulnerability'] } };
    // Already attached, missing, and a finding of another project: 400, nothing written.
    expect(await call('owner', 'POST', `/projects/${project.id}/vulnerabilities?finding_id=${attached}`)).toMatchObject({ status: 400, body });
    expect(await call('owner', 'POST', `/projects/${project.id}/vulnerabilities?finding_id=999999`)).toMatchObject({ status: 400, body });
    const other = await call('owner', 'POST', '/projects', { name: 'Other' });
    const xss = await findingIdOf('app/views.py');
    expect(await call('owner', 'POST', `/projects/${other.body.id}/vulnerabilities?finding_id=${xss}`)).toMatchObject({ status: 400, body });
    expect(await call('owner', 'POST', `/projects/${project.id}/vulnerabilities`)).toMatchObject({
      status: 400,
      body: { message: '400 (Bad request) "finding_id" not given' },
    });
    expect(await call('owner', 'POST', `/projects/${project.id}/vulnerabilities?finding_id=abc`)).toMatchObject({
      status: 400,
      body: { message: { finding_id: expect.any(Array) } },
    });
    await expect(client('owner').ProjectVulnerabilities.create(project.id, attached)).rejects.toThrow();
    expect(await gw.dataSource.query('SELECT count(*)::int AS n FROM vulnerabilities')).toEqual([{ n: 1 }]);

    // Without access to the security dashboard (below developer): 403; creating needs maintainer: 403.
    expect(await call('rep', 'GET', `/projects/${project.id}/vulnerabilities`)).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await call('dev', 'POST', `/projects/${project.id}/vulnerabilities?finding_id=${xss}`)).status).toBe(403);
    expect((await call('rep', 'GET', `/vulnerabilities/${vulnerabilityId}`)).status).toBe(403);
    expect((await call('dev', 'POST', `/vulnerabilities/${vulnerabilityId}/confirm`)).status).toBe(403);
    // A private project and a caller who is not a member: 404, for the project's and the single vulnerability's routes.
    expect(await call('stranger', 'GET', `/projects/${project.id}/vulnerabilities`)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect((await call('stranger', 'POST', `/projects/${project.id}/vulnerabilities?finding_id=${xss}`)).status).toBe(404);
    expect(await call('stranger', 'GET', `/vulnerabilities/${vulnerabilityId}`)).toMatchObject({
      status: 404,
      body: { message: '404 Vulnerability Not Found' },
    });
    expect((await call('stranger', 'POST', `/vulnerabilities/${vulnerabilityId}/resolve`)).status).toBe(404);
    // Every call is authenticated; unknown ids are 404.
    expect((await call(null, 'GET', `/projects/${project.id}/vulnerabilities`)).status).toBe(401);
    expect((await call(null, 'GET', `/vulnerabilities/${vulnerabilityId}`)).status).toBe(401);
    expect((await call('owner', 'GET', '/vulnerabilities/99999999')).status).toBe(404);
    expect((await call('owner', 'GET', '/vulnerabilities/99999999999')).status).toBe(404);
    expect((await call('owner', 'POST', '/vulnerabilities/abc/confirm')).status).toBe(404);
  });

  it('moves through GitLab states: confirm, resolve, dismiss, revert; 304 when already there', async () => {
    const path = `/vulnerabilities/${vulnerabilityId}`;
    expect((await call('dev', 'GET', path)).body).toMatchObject({ id: vulnerabilityId, state: 'opened' });
    expect((await call('owner', 'POST', `${path}/revert`)).status).toBe(304);

    const confirmed = await call('owner', 'POST', `${path}/confirm`);
    expect(confirmed).toMatchObject({
      status: 201,
      body: { state: 'confirmed', confirmed_by_id: users.owner.id, confirmed_at: expect.any(String), updated_by_id: users.owner.id },
    });
    const again = await call('owner', 'POST', `${path}/confirm`);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');

    const resolved = await call('owner', 'POST', `${path}/resolve`);
    expect(resolved.body).toMatchObject({
      state: 'resolved',
      resolved_by_id: users.owner.id,
      resolved_at: expect.any(String),
      confirmed_at: null,
      confirmed_by_id: null,
    });
    expect((await call('owner', 'POST', `${path}/resolve`)).status).toBe(304);

    const dismissed = await call('owner', 'POST', `${path}/dismiss`);
    expect(dismissed.body).toMatchObject({
      state: 'dismissed',
      dismissed_by_id: users.owner.id,
      dismissed_at: expect.any(String),
      resolved_at: null,
      resolved_by_id: null,
    });
    expect((await call('owner', 'POST', `${path}/dismiss`)).status).toBe(304);
    // The findings list leaves out dismissed ones unless `scope=all`.
    const names = async (query: string) =>
      (await call('dev', 'GET', `/projects/${project.id}/vulnerability_findings${query}`)).body.map(
        (f: { name: string; state: string }) => `${f.name}: ${f.state}`,
      );
    expect(await names('')).toEqual(['python.xss in app/views.py: detected']);
    expect(await names('?scope=all')).toEqual(['python.xss in app/views.py: detected', 'python.sqli in app/db.py: dismissed']);

    const reverted = await call('owner', 'POST', `${path}/revert`);
    expect(reverted.body).toMatchObject({ state: 'detected', dismissed_at: null, dismissed_by_id: null, resolved_at: null, confirmed_at: null });
    expect((await call('owner', 'POST', `${path}/revert`)).status).toBe(304);

    const events = (await gw.dataSource.query(
      `SELECT payload->>'type' AS type, payload->'data'->>'from' AS "from", payload->'data'->>'state' AS state FROM outbox_events WHERE payload->>'type' LIKE 'vulnerability.%' ORDER BY seq`,
    )) as Array<{ type: string }>;
    expect(events).toEqual([
      { type: 'vulnerability.created', from: null, state: 'opened' },
      { type: 'vulnerability.confirmed', from: 'opened', state: 'confirmed' },
      { type: 'vulnerability.resolved', from: 'confirmed', state: 'resolved' },
      { type: 'vulnerability.dismissed', from: 'resolved', state: 'dismissed' },
      { type: 'vulnerability.reverted', from: 'dismissed', state: 'detected' },
    ]);
  });

  it('records a malformed report as a parse error of the pipeline, changing nothing else', async () => {
    const before = await gw.dataSource.query('SELECT uuid, updated_at FROM vulnerability_findings ORDER BY id');
    const { pipelineId } = await runPipeline('{"version": "15.0.7", "vulnerabilities": [ {"name": "cut');
    expect(await gw.dataSource.query('SELECT scan_type, status, findings_count, errors FROM security_scans WHERE pipeline_id = $1', [pipelineId])).toEqual([
      { scan_type: 'sast', status: 'report_error', findings_count: 0, errors: [{ type: 'ParsingError', message: 'JSON parsing failed' }] },
    ]);
    expect(await gw.dataSource.query('SELECT uuid, updated_at FROM vulnerability_findings ORDER BY id')).toEqual(before);
    expect((await call('dev', 'GET', `/vulnerabilities/${vulnerabilityId}`)).body.resolved_on_default_branch).toBe(false);
    // The pipeline itself finished normally and the API still answers.
    expect((await call('owner', 'GET', `/projects/${project.id}/pipelines/${pipelineId}`)).body.status).toBe('success');
  }, 120_000);

  it('sets resolved_on_default_branch when the latest default-branch pipeline no longer reports the finding, and clears it when it comes back', async () => {
    const moved = { ...XSS, description: 'moved on' };
    await runPipeline(report(moved));
    const gone = await call('dev', 'GET', `/vulnerabilities/${vulnerabilityId}`);
    expect(gone.body).toMatchObject({ resolved_on_default_branch: true, state: 'detected' });
    // The XSS finding was updated in place (same UUID), not duplicated.
    expect(
      await gw.dataSource.query(
        `SELECT count(*)::int AS n, max(description) AS description FROM vulnerability_findings WHERE location->>'file' = 'app/views.py'`,
      ),
    ).toEqual([{ n: 1, description: 'moved on' }]);
    const [last] = (await outbox('security_reports.ingested')).slice(-1);
    expect(last.data).toMatchObject({ findings_created: 0, findings_updated: 1, resolved_on_default_branch: [vulnerabilityId] });

    // Resolved by a user, then reported again (a gzip upload this time): back to detected by the pipeline (actor null).
    expect((await call('owner', 'POST', `/vulnerabilities/${vulnerabilityId}/resolve`)).status).toBe(201);
    await runPipeline(report(SQLI, XSS), 'gzip');
    expect((await call('dev', 'GET', `/vulnerabilities/${vulnerabilityId}`)).body).toMatchObject({
      resolved_on_default_branch: false,
      state: 'detected',
      resolved_at: null,
    });
    const [reverted] = (await outbox('vulnerability.reverted')).slice(-1);
    expect(reverted).toMatchObject({ actor: null, data: { vulnerability_id: vulnerabilityId, from: 'resolved', state: 'detected' } });
  }, 180_000);

  it('ingests only default-branch pipelines', async () => {
    const feature = await runPipeline(report(finding('app/new.py', 1, 'python.eval')), 'raw', 'feature');
    // Events of one project are ordered: once the next main pipeline is ingested, the feature pipeline's event was handled.
    await runPipeline(report(SQLI, XSS));
    expect(await gw.dataSource.query('SELECT count(*)::int AS n FROM security_scans WHERE pipeline_id = $1', [feature.pipelineId])).toEqual([{ n: 0 }]);
    expect(await findingIdOf('app/new.py')).toBeUndefined();
  }, 180_000);

  it('stores findings whose strings hold NUL characters or lone surrogates, and records JSON nested too deeply as a parse error', async () => {
    // Valid JSON that PostgreSQL refuses as text or jsonb: the ingestion used to fail as a whole (retried, dead-lettered, nothing recorded).
    const hostile = {
      ...finding('app/nul.py', 3, 'python.nul'),
      name: 'nul\u0000name',
      description: 'lone \ud800',
      location: { file: 'app/nul.py', start_line: 3, end_line: 3, 'k\u0000': 'v' },
    };
    const stored = await runPipeline(report(SQLI, XSS, hostile));
    expect(await gw.dataSource.query('SELECT status, findings_count FROM security_scans WHERE pipeline_id = $1', [stored.pipelineId])).toEqual([
      { status: 'succeeded', findings_count: 3 },
    ]);
    expect(await gw.dataSource.query(`SELECT name, description FROM vulnerability_findings WHERE location->>'file' = 'app/nul.py'`)).toEqual([
      { name: 'nul\uFFFDname', description: 'lone \uFFFD' },
    ]);

    const deep = `{"vulnerabilities":[{"identifiers":[{"type":"a","name":"a","value":"a"}],"location":{"file":"f"},"x":${'['.repeat(50_000)}${']'.repeat(50_000)}}]}`;
    const refused = await runPipeline(deep);
    expect(await gw.dataSource.query('SELECT status, errors FROM security_scans WHERE pipeline_id = $1', [refused.pipelineId])).toEqual([
      { status: 'report_error', errors: [{ type: 'ParsingError', message: 'JSON parsing failed: nested deeper than 100 levels' }] },
    ]);
  }, 180_000);
});
