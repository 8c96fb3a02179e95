import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '@app/testing';
import { cloneUrl, GitClient } from './support/git-client';
import { api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

/** The status of a raw HTTP exchange, or null when the server closed without answering. */
interface RawAnswer {
  status: number | null;
  text: string;
}

/**
 * One request written byte for byte on a fresh connection to the gateway (127.0.0.1): the head,
 * then the body pieces. `halfClose` ends the sending side right after (a client that stops
 * mid-body); the answer is read until the server closes (`Connection: close`).
 */
function rawRequest(port: number, head: string, pieces: Buffer[], halfClose: boolean): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const received: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(received).toString('utf8');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: status ? Number(status[1]) : null, text });
    };
    // A bound on the exchange: the server's own request timeout is far shorter.
    const timer = setTimeout(finish, 60_000);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', finish);
    socket.on('connect', () => {
      socket.write(head);
      for (const piece of pieces) socket.write(piece);
      if (halfClose) socket.end();
    });
  });
}

const BOUNDARY = '----hostile-boundary';

/** A multipart form with a `file` part whose closing boundary never comes. */
function truncatedForm(size: number): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="artifacts.zip"\r\nContent-Type: application/zip\r\n\r\n`),
    Buffer.alloc(size, 7),
  ]);
}

const chunked = (body: Buffer, final: boolean): Buffer[] => [
  Buffer.from(`${body.length.toString(16)}\r\n`),
  body,
  Buffer.from(final ? '\r\n0\r\n\r\n' : '\r\n'),
];

/** Every file under `dir` (recursively), relative. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (path: string, prefix: string) => {
    let entries: string[];
    try {
      entries = readdirSync(path);
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = join(path, entry);
      if (statSync(full).isDirectory()) walk(full, `${prefix}${entry}/`);
      else out.push(`${prefix}${entry}`);
    }
  };
  walk(dir, '');
  return out;
}

describe('CI against hostile input', () => {
  let gw: TestGateway;
  let git: GitClient;
  let owner: { id: number; username: string; token: string };
  let project: { id: number; path_with_namespace: string };
  let runnerToken: string;
  let work: string;
  let dataDir: string;
  let port: number;

  async function pushConfig(config: string, ref: string): Promise<string> {
    writeFileSync(join(work, '.gitlab-ci.yml'), config);
    await git.ok(['add', '.gitlab-ci.yml'], { cwd: work });
    await git.ok(['commit', '-q', '--allow-empty', '-m', `CI for ${ref}`], { cwd: work });
    await git.ok(['push', '-q', 'origin', `HEAD:refs/heads/${ref}`], { cwd: work });
    return git.ok(['rev-parse', 'HEAD'], { cwd: work });
  }

  async function runningJob(): Promise<{ id: number; token: string }> {
    return eventually(
      async () => {
        const answer = await api(gw.baseUrl, 'POST', '/api/v4/jobs/request', { body: { token: runnerToken } });
        return answer.status === 201 ? (answer.body as { id: number; token: string }) : undefined;
      },
      'a job for the runner',
      60_000,
    );
  }

  const readiness = async () => (await fetch(`${gw.baseUrl}/-/readiness`)).status;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-ci-hostile-'));
    gw = await startTestGateway('ci-hostile-input', { CI_LONG_POLL_SECONDS: '1', DATA_DIR: dataDir });
    port = Number(new URL(gw.baseUrl).port);
    git = new GitClient();
    owner = await createUserWithToken(gw, 'hostile');
    const created = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: owner.token, body: { name: 'Target', initialize_with_readme: true } });
    if (created.status !== 201) throw new Error(created.text);
    project = created.body;
    const runner = await api(gw.baseUrl, 'POST', '/api/v4/user/runners', { token: owner.token, body: { runner_type: 'project_type', project_id: project.id } });
    runnerToken = runner.body.token;
    work = git.dir('target');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, project.path_with_namespace, owner), work]);
  }, 60_000);
  afterAll(async () => {
    git?.cleanup();
    await gw?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers a truncated artifact upload with a 400 and lives on, leaving no partial object', async () => {
    await pushConfig('build:\n  script: [make]\n', 'main');
    const job = await runningJob();
    const path = `/api/v4/jobs/${job.id}/artifacts?artifact_type=archive&artifact_format=zip`;
    const head = (framing: string) =>
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nJOB-TOKEN: ${job.token}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nConnection: close\r\n${framing}\r\n`;
    // The HTTP body is complete, the form is not: no closing boundary. A small file part is whole in
    // the parser before storage listens to it; a large one is cut while it streams.
    for (const size of [100, 64 * 1024]) {
      const cutForm = truncatedForm(size);
      const withLength = await rawRequest(port, head(`Content-Length: ${cutForm.length}\r\n`), [cutForm], false);
      expect(withLength.status).toBe(400);
      expect(JSON.parse(withLength.text.slice(withLength.text.indexOf('\r\n\r\n') + 4))).toEqual({
        error: expect.stringContaining('malformed multipart body'),
      });
      expect(await readiness()).toBe(200);
      const withChunks = await rawRequest(port, head('Transfer-Encoding: chunked\r\n'), chunked(cutForm, true), false);
      expect(withChunks.status).toBe(400);
      expect(await readiness()).toBe(200);
    }
    const form = truncatedForm(64 * 1024);

    // The HTTP body itself stops short and the client goes away: no answer is owed, the gateway lives.
    for (const [framing, pieces] of [
      [`Content-Length: ${form.length + 100_000}\r\n`, [form]],
      ['Transfer-Encoding: chunked\r\n', chunked(form, false)],
    ] as const) {
      const cut = await rawRequest(port, head(framing), [...pieces], true);
      if (cut.status !== null) expect(cut.status).toBeGreaterThanOrEqual(400);
      if (cut.status !== null) expect(cut.status).toBeLessThan(500);
      expect(await readiness()).toBe(200);
    }

    // Nothing half-written stays in object storage, and no artifact row was recorded.
    await eventually(async () => (filesUnder(join(dataDir, 'ci', 'artifacts')).length === 0 ? true : undefined), 'no partial artifact files', 10_000);
    expect(await gw.dataSource.query('SELECT id FROM ci_job_artifacts WHERE job_id = $1', [job.id])).toEqual([]);

    // A whole upload still works afterwards.
    const whole = new FormData();
    whole.append('file', new Blob([Buffer.alloc(1000, 1)]), 'artifacts.zip');
    const ok = await fetch(`${gw.baseUrl}${path}`, { method: 'POST', headers: { 'JOB-TOKEN': job.token }, body: whole });
    expect(ok.status).toBe(201);
    expect(filesUnder(join(dataDir, 'ci', 'artifacts')).filter((file) => file.endsWith('.part'))).toEqual([]);
    expect(await api(gw.baseUrl, 'PUT', `/api/v4/jobs/${job.id}`, { body: { token: job.token, state: 'success' } })).toMatchObject({ status: 200 });
  }, 120_000);

  it('answers a trace body cut short without dying and keeps the trace as it was', async () => {
    await pushConfig('build:\n  script: [make]\n', 'trace');
    const job = await runningJob();
    const path = `/api/v4/jobs/${job.id}/trace`;
    const first = await fetch(`${gw.baseUrl}${path}`, {
      method: 'PATCH',
      headers: { 'JOB-TOKEN': job.token, 'Content-Type': 'text/plain', 'Content-Range': '0-5' },
      body: 'hello\n',
    });
    expect(first.status).toBe(202);
    const head = (framing: string) =>
      `PATCH ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nJOB-TOKEN: ${job.token}\r\nContent-Type: text/plain\r\nContent-Range: 6-10005\r\nConnection: close\r\n${framing}\r\n`;
    const chunk = Buffer.alloc(4000, 0x61);
    for (const [framing, pieces] of [
      ['Content-Length: 10000\r\n', [chunk]],
      ['Transfer-Encoding: chunked\r\n', chunked(chunk, false)],
    ] as const) {
      const cut = await rawRequest(port, head(framing), [...pieces], true);
      if (cut.status !== null) expect(cut.status).toBeGreaterThanOrEqual(400);
      if (cut.status !== null) expect(cut.status).toBeLessThan(500);
      expect(await readiness()).toBe(200);
    }
    // Nothing of the cut bodies was appended: the next chunk still goes at offset 6.
    const next = await fetch(`${gw.baseUrl}${path}`, {
      method: 'PATCH',
      headers: { 'JOB-TOKEN': job.token, 'Content-Type': 'text/plain', 'Content-Range': '6-8' },
      body: 'ok\n',
    });
    expect(next.status).toBe(202);
    expect(next.headers.get('range')).toBe('0-9');
    expect(await api(gw.baseUrl, 'PUT', `/api/v4/jobs/${job.id}`, { body: { token: job.token, state: 'success' } })).toMatchObject({ status: 200 });
  }, 120_000);

  it('refuses an artifact expire_in that no date can hold with a 400, as GitLab, and keeps the job running', async () => {
    await pushConfig('build:\n  script: [make]\n  artifacts:\n    paths: [dist/]\n    expire_in: 1000000000 years\n', 'expire');
    const job = await runningJob();
    const upload = async (query: string) => {
      const form = new FormData();
      form.append('file', new Blob([Buffer.alloc(100, 1)]), 'artifacts.zip');
      const response = await fetch(`${gw.baseUrl}/api/v4/jobs/${job.id}/artifacts?${query}`, {
        method: 'POST',
        headers: { 'JOB-TOKEN': job.token },
        body: form,
      });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    // From the job's `artifacts:expire_in` (the configuration is valid, as in GitLab), and as the parameter.
    expect(await upload('artifact_type=archive&artifact_format=zip')).toEqual({ status: 400, body: { message: 'expire_in is out of range' } });
    expect(await upload(`artifact_type=archive&artifact_format=zip&expire_in=${encodeURIComponent('1000000000 years')}`)).toEqual({
      status: 400,
      body: { message: 'expire_in is out of range' },
    });
    expect(await upload(`artifact_type=archive&artifact_format=zip&expire_in=${'9'.repeat(400)}`)).toEqual({
      status: 400,
      body: { error: 'expire_in is invalid' },
    });
    expect(await gw.dataSource.query('SELECT id FROM ci_job_artifacts WHERE job_id = $1', [job.id])).toEqual([]);
    expect(await upload('artifact_type=archive&artifact_format=zip&expire_in=1%20day')).toMatchObject({ status: 201 });
    expect(await api(gw.baseUrl, 'PUT', `/api/v4/jobs/${job.id}`, { body: { token: job.token, state: 'success' } })).toMatchObject({ status: 200 });
  }, 120_000);

  it('answers bad runner bodies as it always did: a token that is not a string is 403, a state that is not one is a heartbeat, a numeric exit_code string counts', async () => {
    const runnerCall = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => api(gw.baseUrl, method, path, { body, headers });
    // Registration calls: the token must be a string, anything else is the 403 of a wrong token.
    for (const body of [{}, { token: 5 }, { token: [runnerToken] }, { token: { value: runnerToken } }, { token: null }, [], [{ token: runnerToken }]]) {
      expect(await runnerCall('POST', '/api/v4/runners/verify', body)).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      expect(await runnerCall('POST', '/api/v4/jobs/request', body)).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      expect(await runnerCall('DELETE', '/api/v4/runners', body)).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    }
    expect(await api(gw.baseUrl, 'POST', '/api/v4/runners/verify', { form: { token: runnerToken } })).toMatchObject({
      status: 200,
      body: { token: runnerToken, token_expires_at: null },
    });
    // Whatever else the body holds is ignored (info that is not an object, a last_update that is not a string).
    const polled = await runnerCall('POST', '/api/v4/jobs/request', { token: runnerToken, info: 'gitlab-runner', last_update: 7, unknown: { deep: [1] } });
    expect(polled.status).toBe(204);
    expect(polled.headers.get('x-gitlab-last-update')).toEqual(expect.any(String));
    // DELETE /runners: a body token that is not a string falls back to the query's.
    const throwaway = await api(gw.baseUrl, 'POST', '/api/v4/user/runners', {
      token: owner.token,
      body: { runner_type: 'project_type', project_id: project.id },
    });
    expect((await runnerCall('DELETE', `/api/v4/runners?token=${throwaway.body.token}`, { token: 42 })).status).toBe(204);
    expect((await runnerCall('POST', '/api/v4/runners/verify', { token: throwaway.body.token })).status).toBe(403);

    await pushConfig('build:\n  script: [make]\n', 'bodies');
    const job = await runningJob();
    const update = (body: unknown, headers: Record<string, string> = {}) => runnerCall('PUT', `/api/v4/jobs/${job.id}`, body, headers);
    const statusOf = async () =>
      (await gw.dataSource.query('SELECT status, failure_reason, exit_code FROM ci_jobs WHERE id = $1', [job.id]))[0] as {
        status: string;
        failure_reason: string | null;
        exit_code: number | null;
      };
    // A job token that is not a string is no token: 403.
    for (const token of [5, [job.token], null])
      expect(await update({ token, state: 'success' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    // The token in a header with a body that is no object, or a body without a state or with one that is not a string: a heartbeat.
    for (const [body, headers] of [
      [[], { 'JOB-TOKEN': job.token }],
      [{ token: 5, state: 'running' }, { 'JOB-TOKEN': job.token }],
      [{ token: job.token }, {}],
      [{ token: job.token, state: 5 }, {}],
      [{ token: job.token, state: ['success'] }, {}],
      [{ token: job.token, state: null, exit_code: 'x' }, {}],
    ] as const) {
      const answer = await update(body, headers);
      expect(answer).toMatchObject({ status: 200, text: '200' });
      expect(answer.headers.get('job-status')).toBe('running');
    }
    expect(await statusOf()).toEqual({ status: 'running', failure_reason: null, exit_code: null });
    // A string state that is not one of the three: Grape's 400; a wrong token first is 403.
    expect(await update({ token: job.token, state: 'bogus' })).toMatchObject({ status: 400, body: { error: 'state does not have a valid value' } });
    expect(await update({ token: 'glcbt-wrong', state: 'bogus' })).toMatchObject({ status: 403 });
    // A numeric-string exit code is taken, a failure_reason that is not a string is not.
    expect(await update({ token: job.token, state: 'failed', exit_code: '3', failure_reason: 7 })).toMatchObject({ status: 200, text: '200' });
    expect(await statusOf()).toEqual({ status: 'failed', failure_reason: 'unknown_failure', exit_code: 3 });
  }, 120_000);

  it("fails the pipeline of a push whose .gitlab-ci.yml is over 1 MB, with GitLab's yaml error", async () => {
    const sha = await pushConfig(`build:\n  script: [make]\n# ${'x'.repeat(2_500_000)}\n`, 'huge');
    const pipeline = await eventually(
      async () => {
        const listed = await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}/pipelines?sha=${sha}`, { token: owner.token });
        return listed.body.length > 0 ? (listed.body[0] as { id: number }) : undefined;
      },
      'the pipeline of the push',
      60_000,
    );
    const full = await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}/pipelines/${pipeline.id}`, { token: owner.token });
    expect(full.body).toMatchObject({ status: 'failed', ref: 'huge', sha, yaml_errors: 'The parsed YAML is too big' });
    expect(await gw.dataSource.query('SELECT id FROM ci_jobs WHERE pipeline_id = $1', [pipeline.id])).toEqual([]);
    // Through the API the same configuration is refused with the same words.
    const created = await api(gw.baseUrl, 'POST', `/api/v4/projects/${project.id}/pipeline`, { token: owner.token, body: { ref: 'huge' } });
    expect(created.status).toBe(400);
    expect(JSON.stringify(created.body)).toContain('The parsed YAML is too big');
    expect(await readiness()).toBe(200);
  }, 120_000);
});
