import { execFileSync } from 'node:child_process';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Gitlab } from '@gitbeaker/rest';
import { CiJobEntity, CiPipelineEntity, CiStageEntity } from '@app/ci';
import { AwardEmojiEntity } from '@app/notes';
import { RepositoryStorage } from '@app/repository';
import * as tar from 'tar-stream';
import { seedBranches } from './support/git-fixture';
import { addProjectMember, api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

const MAX_DECOMPRESSED = 4 * 1024 * 1024;

/** A gzipped tar of `entries` (`type` defaults to file). */
async function archive(
  entries: Array<{ name: string; content?: string | Buffer; type?: 'file' | 'symlink' | 'directory'; linkname?: string }>,
): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (chunk) => void chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve) => pack.on('end', () => resolve()));
  for (const entry of entries) {
    if (entry.type === 'symlink') pack.entry({ name: entry.name, type: 'symlink', linkname: entry.linkname ?? '/etc/passwd' });
    else if (entry.type === 'directory') pack.entry({ name: entry.name, type: 'directory' });
    else pack.entry({ name: entry.name }, entry.content ?? '');
  }
  pack.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}

/** The entries of a gzipped tar, by name. */
async function entriesOf(gzipped: Buffer): Promise<Map<string, string>> {
  const entries = new Map<string, string>();
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c) => void chunks.push(c as Buffer));
    stream.on('end', () => {
      entries.set(header.name, Buffer.concat(chunks).toString('latin1'));
      next();
    });
  });
  await new Promise<void>((resolve, reject) =>
    extract
      .on('finish', () => resolve())
      .on('error', reject)
      .end(gunzipSync(gzipped)),
  );
  return entries;
}

const ndjson = (text: string | undefined): any[] =>
  (text ?? '')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line));

const minimal = (
  extra: Array<{ name: string; content?: string | Buffer; type?: 'file' | 'symlink' | 'directory'; linkname?: string }> = [],
  version = '0.2.4',
) => archive([{ name: 'VERSION', content: version }, { name: 'tree/project.json', content: '{"description":"from archive","visibility_level":0}' }, ...extra]);

/** Project export and import in GitLab's format against the real gateway, PostgreSQL, Redis and git. */
describe('Project export and import', () => {
  let gw: TestGateway;
  let owner: { id: number; token: string };
  let dev: { id: number; token: string };
  let other: { id: number; token: string };
  let anon: { id: number; token: string };
  const hostile: Array<{ id: number; token: string }> = [];
  let projectId: number;
  let receiver: Server;
  let received: Array<{ method: string; type: string; bytes: Buffer }> = [];
  let remote: Server;
  let remoteBody: Buffer = Buffer.alloc(0);
  let remoteHeaders: Record<string, string> = {};

  const root = () => ({ token: gw.rootToken });
  const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 60_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const exportStatus = (id: number, token = gw.rootToken) => api(gw.baseUrl, 'GET', `/api/v4/projects/${id}/export`, { token });
  const importStatus = (id: number) => api(gw.baseUrl, 'GET', `/api/v4/projects/${id}/import`, root());
  const waitImport = (id: number) =>
    until(
      () => importStatus(id),
      (r) => ['finished', 'failed'].includes(r.body.import_status),
      `import of ${id}`,
    ).then((r) => r.body);
  const upload = async (file: Buffer, fields: Record<string, string>, token = gw.rootToken) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append('file', new Blob([new Uint8Array(file)], { type: 'application/gzip' }), 'export.tar.gz');
    const response = await fetch(`${gw.baseUrl}/api/v4/projects/import`, { method: 'POST', headers: { 'PRIVATE-TOKEN': token }, body: form });
    return { status: response.status, body: (await response.json()) as any };
  };
  const refs = (id: number): string =>
    execFileSync('git', ['--git-dir', gw.app.get(RepositoryStorage).pathOf(id), 'for-each-ref', '--format=%(refname) %(objectname)'], { encoding: 'utf8' });

  beforeAll(async () => {
    gw = await startTestGateway('project-transfer', { PROJECT_IMPORT_MAX_DECOMPRESSED_BYTES: String(MAX_DECOMPRESSED) });
    expect(
      (await api(gw.baseUrl, 'PUT', '/api/v4/application/settings', { ...root(), body: { allow_local_requests_from_web_hooks_and_services: true } })).status,
    ).toBe(200);
    owner = await createUserWithToken(gw, 'owner', { attributes: { public_email: 'owner@example.com' } });
    dev = await createUserWithToken(gw, 'dev', { attributes: { public_email: 'dev@example.com' } });
    anon = await createUserWithToken(gw, 'anon');
    for (const name of ['h1', 'h2', 'h3', 'h4']) hostile.push(await createUserWithToken(gw, name));
    other = await createUserWithToken(gw, 'other');
    const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', {
      token: owner.token,
      body: { name: 'Source', path: 'source', description: 'the source', default_branch: 'main' },
    });
    expect(project.status).toBe(201);
    projectId = project.body.id;
    await addProjectMember(gw, projectId, dev.id, 30);
    await addProjectMember(gw, projectId, anon.id, 20);
    const shas = await seedBranches(gw, projectId, 'main', ['feature']);
    const repository = await gw.app.get(RepositoryStorage).open({ id: projectId, defaultBranch: 'main' });
    await repository.updateRef('refs/tags/v1.0', shas.main, '0000000000000000000000000000000000000000', 'tag');
    const as = { token: owner.token };
    const p = `/api/v4/projects/${projectId}`;
    expect((await api(gw.baseUrl, 'POST', `${p}/labels`, { ...as, body: { name: 'bug', color: '#ff0000', description: 'a bug' } })).status).toBe(201);
    const milestone = await api(gw.baseUrl, 'POST', `${p}/milestones`, { ...as, body: { title: 'v1', due_date: '2030-01-31' } });
    expect(milestone.status).toBe(201);
    for (let i = 1; i <= 3; i++) {
      const issue = await api(gw.baseUrl, 'POST', `${p}/issues`, {
        ...as,
        body: { title: `Issue ${i}`, description: `body ${i}`, labels: i === 1 ? 'bug' : '', milestone_id: i === 2 ? milestone.body.id : undefined },
      });
      expect(issue.status).toBe(201);
      expect((await api(gw.baseUrl, 'POST', `${p}/issues/${issue.body.iid}/notes`, { ...as, body: { body: `note on ${i}` } })).status).toBe(201);
      if (i === 2)
        expect((await api(gw.baseUrl, 'POST', `${p}/issues/${issue.body.iid}/notes`, { token: anon.token, body: { body: 'anon says hi' } })).status).toBe(201);
      if (i === 1) {
        expect((await api(gw.baseUrl, 'POST', `${p}/issues/${issue.body.iid}/notes`, { token: dev.token, body: { body: 'dev says hi' } })).status).toBe(201);
        await gw.dataSource.manager.insert(AwardEmojiEntity, { name: 'thumbsup', userId: owner.id, awardableType: 'Issue', awardableId: issue.body.id });
      }
    }
    expect((await api(gw.baseUrl, 'PUT', `${p}/issues/3`, { ...as, body: { state_event: 'close' } })).status).toBe(200);
    const mr = await api(gw.baseUrl, 'POST', `${p}/merge_requests`, {
      ...as,
      body: { source_branch: 'feature', target_branch: 'main', title: 'Add feature', labels: 'bug' },
    });
    expect(mr.status).toBe(201);
    expect((await api(gw.baseUrl, 'POST', `${p}/merge_requests/${mr.body.iid}/notes`, { ...as, body: { body: 'looks good' } })).status).toBe(201);
    expect(
      (
        await api(gw.baseUrl, 'POST', `${p}/badges`, {
          ...as,
          body: { link_url: 'https://example.com/%{project_path}', image_url: 'https://example.com/badge.svg', name: 'ci' },
        })
      ).status,
    ).toBe(201);
    expect(
      (await api(gw.baseUrl, 'POST', `${p}/protected_branches`, { ...as, body: { name: 'release-*', push_access_level: 40, merge_access_level: 30 } })).status,
    ).toBe(201);
    // A snippet of two files with a note, awards on notes and on the merge request: every nested relation travels.
    const snippet = await api(gw.baseUrl, 'POST', `${p}/snippets`, {
      ...as,
      body: {
        title: 'Snip',
        description: 'two files',
        visibility: 'internal',
        files: [
          { file_path: 'a.txt', content: 'A' },
          { file_path: 'b/c.md', content: '# C' },
        ],
      },
    });
    expect(snippet.status).toBe(201);
    const snippetNote = await api(gw.baseUrl, 'POST', `${p}/snippets/${snippet.body.id}/notes`, { token: dev.token, body: { body: 'nice snippet' } });
    expect(snippetNote.status).toBe(201);
    const mrNote = ((await api(gw.baseUrl, 'GET', `${p}/merge_requests/${mr.body.iid}/notes`, as)).body as any[]).find((n) => n.body === 'looks good');
    await gw.dataSource.manager.insert(AwardEmojiEntity, [
      { name: 'tada', userId: dev.id, awardableType: 'Note', awardableId: mrNote.id },
      { name: 'rocket', userId: owner.id, awardableType: 'Note', awardableId: snippetNote.body.id },
      { name: 'eyes', userId: dev.id, awardableType: 'MergeRequest', awardableId: mr.body.id },
    ]);

    // A finished pipeline of two stages (through the database: no runner here), and one still running.
    const pipelines = await gw.dataSource.manager.insert(CiPipelineEntity, [
      {
        iid: 1,
        projectId,
        status: 'failed',
        source: 'push',
        ref: 'main',
        sha: shas.main,
        beforeSha: '0'.repeat(40),
        tag: false,
        protected: true,
        userId: owner.id,
        failureReason: null,
        startedAt: new Date(),
        finishedAt: new Date(),
        duration: 12,
      },
      { iid: 2, projectId, status: 'running', source: 'web', ref: 'main', sha: shas.main, beforeSha: '0'.repeat(40), tag: false, userId: owner.id },
    ]);
    const [done, running] = pipelines.identifiers.map((i) => i.id as number);
    await gw.dataSource.manager.insert(CiStageEntity, [
      { pipelineId: done, name: 'build', position: 0, status: 'success' },
      { pipelineId: done, name: 'test', position: 1, status: 'failed' },
      { pipelineId: running, name: 'test', position: 0, status: 'running' },
    ]);
    const job = (pipelineId: number, name: string, stage: string, stageIdx: number, status: string, extra: Record<string, unknown> = {}) => ({
      projectId,
      pipelineId,
      type: 'build',
      name,
      stage,
      stageIdx,
      status,
      when: 'on_success',
      ref: 'main',
      sha: shas.main,
      userId: owner.id,
      options: { script: [`make ${name}`] },
      yamlVariables: { MODE: name },
      ...extra,
    });
    await gw.dataSource.manager.insert(CiJobEntity, [
      job(done, 'compile', 'build', 0, 'success', { coverage: '81.50', startedAt: new Date(), finishedAt: new Date() }),
      job(done, 'unit', 'test', 1, 'failed', { failureReason: 'script_failure', allowFailure: false }),
      job(done, 'lint', 'test', 1, 'failed', { allowFailure: true }),
      job(running, 'slow', 'test', 0, 'running'),
    ] as never);

    receiver = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ method: req.method!, type: String(req.headers['content-type']), bytes: Buffer.concat(chunks) });
        res.writeHead(200).end('ok');
      });
    });
    remote = createServer((req, res) => {
      res.writeHead(200, remoteHeaders);
      res.end(req.method === 'HEAD' ? undefined : remoteBody);
    });
    await Promise.all([receiver, remote].map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
  }, 120_000);

  afterAll(async () => {
    receiver?.close();
    remote?.close();
    await gw?.close();
  });

  let exported: Buffer;
  let copyId: number;

  it("exports a project as a job: queued → finished, then the archive downloads as an attachment in GitLab's layout", async () => {
    expect((await exportStatus(projectId)).body.export_status).toBe('none');
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${projectId}/export/download`, { token: owner.token })).status).toBe(404);
    const accepted = await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/export`, {
      token: owner.token,
      body: { description: 'exported description' },
    });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ message: '202 Accepted' });
    const first = await exportStatus(projectId);
    expect(['queued', 'started', 'finished']).toContain(first.body.export_status);
    if (first.body.export_status !== 'finished') expect(first.body._links).toBeUndefined();
    const done = await until(
      () => exportStatus(projectId),
      (r) => r.body.export_status === 'finished',
      'export',
    );
    expect(done.body).toMatchObject({
      id: projectId,
      name: 'Source',
      path: 'source',
      path_with_namespace: 'owner/source',
      _links: { api_url: `${gw.baseUrl}/api/v4/projects/${projectId}/export/download` },
    });
    const response = await fetch(`${gw.baseUrl}/api/v4/projects/${projectId}/export/download`, { headers: { 'PRIVATE-TOKEN': owner.token } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{3}_owner_source_export\.tar\.gz"$/);
    exported = Buffer.from(await response.arrayBuffer());
    // One download per minute and user: the next is refused.
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${projectId}/export/download`, { token: owner.token })).status).toBe(429);

    const entries = await entriesOf(exported);
    expect(entries.get('VERSION')).toBe('0.2.4');
    expect(JSON.parse(entries.get('tree/project.json')!)).toMatchObject({ description: 'exported description', visibility_level: 0 });
    expect(entries.has('project.bundle')).toBe(true);
    const issues = entries
      .get('tree/project/issues.ndjson')!
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(issues.map((i) => i.title)).toEqual(['Issue 1', 'Issue 2', 'Issue 3']);
    expect(issues[0]).toMatchObject({ label_links: [{ label: { title: 'bug', color: '#FF0000' } }], award_emoji: [{ name: 'thumbsup' }] });
    expect(issues[0].notes.map((n: any) => n.note)).toEqual(['note on 1', 'dev says hi']);
    expect(issues[1].milestone).toMatchObject({ title: 'v1' });
    for (const relation of ['merge_requests', 'milestones', 'labels', 'project_members', 'protected_branches', 'project_badges', 'snippets', 'ci_pipelines']) {
      expect(entries.has(`tree/project/${relation}.ndjson`)).toBe(true);
    }
    // Pipelines nest their stages, and each stage its jobs as `statuses` with their type, as GitLab writes them.
    const pipelines = entries
      .get('tree/project/ci_pipelines.ndjson')!
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(pipelines.map((p) => [p.iid, p.status, p.protected])).toEqual([
      [1, 'failed', true],
      [2, 'running', false],
    ]);
    expect(pipelines[0].stages.map((st: any) => [st.name, st.position, st.status, st.statuses.map((j: any) => [j.type, j.name, j.status])])).toEqual([
      ['build', 0, 'success', [['Ci::Build', 'compile', 'success']]],
      [
        'test',
        1,
        'failed',
        [
          ['Ci::Build', 'unit', 'failed'],
          ['Ci::Build', 'lint', 'failed'],
        ],
      ],
    ]);
    expect(pipelines[0].stages[0].statuses[0]).toMatchObject({
      coverage: 81.5,
      options: { script: ['make compile'] },
      yaml_variables: [{ key: 'MODE', value: 'compile', public: true }],
    });
    expect(pipelines[0].stages[0].statuses[0]).not.toHaveProperty('token');
  }, 120_000);

  it('imports the archive under a new path with every relation and the git refs', async () => {
    const started = await upload(exported, { path: 'copy', name: 'Copy' });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ path: 'copy', import_status: 'scheduled', failed_relations: [] });
    expect(typeof started.body.correlation_id).toBe('string');
    copyId = started.body.id;
    const status = await waitImport(copyId);
    expect(status).toMatchObject({ import_status: 'finished', import_type: 'gitlab_project', import_error: null, failed_relations: [] });
    expect(refs(copyId)).toBe(refs(projectId));
    const list = async (id: number, what: string) => (await api(gw.baseUrl, 'GET', `/api/v4/projects/${id}/${what}`, root())).body as any[];
    const pick = (rows: any[], keys: string[]) =>
      rows.map((row) => Object.fromEntries(keys.map((k) => [k, k === 'milestone' ? (row[k]?.title ?? null) : k === 'author' ? row[k]?.username : row[k]])));
    const issueKeys = ['iid', 'title', 'description', 'state', 'labels', 'milestone', 'author'];
    expect(pick(await list(copyId, 'issues?sort=asc'), issueKeys)).toEqual(pick(await list(projectId, 'issues?sort=asc'), issueKeys));
    const mrKeys = ['iid', 'title', 'state', 'source_branch', 'target_branch', 'labels', 'author'];
    expect(pick(await list(copyId, 'merge_requests'), mrKeys)).toEqual(pick(await list(projectId, 'merge_requests'), mrKeys));
    expect(pick(await list(copyId, 'milestones'), ['iid', 'title', 'due_date', 'state'])).toEqual(
      pick(await list(projectId, 'milestones'), ['iid', 'title', 'due_date', 'state']),
    );
    expect(pick(await list(copyId, 'labels'), ['name', 'color', 'description'])).toEqual(
      pick(await list(projectId, 'labels'), ['name', 'color', 'description']),
    );
    expect(pick(await list(copyId, 'badges'), ['name', 'link_url', 'image_url'])).toEqual(
      pick(await list(projectId, 'badges'), ['name', 'link_url', 'image_url']),
    );
    const branchKeys = (rows: any[]) =>
      rows.map((b) => ({
        name: b.name,
        push: b.push_access_levels.map((l: any) => l.access_level),
        merge: b.merge_access_levels.map((l: any) => l.access_level),
      }));
    expect(branchKeys(await list(copyId, 'protected_branches'))).toEqual(
      expect.arrayContaining(branchKeys((await list(projectId, 'protected_branches')).filter((b) => b.name === 'release-*'))),
    );
    // Public emails matched: owner and dev are members again and keep their authorship.
    const members = (await list(copyId, 'members')).map((m) => m.username).sort();
    expect(members).toEqual(expect.arrayContaining(['dev', 'owner']));
    const notes = async (id: number) =>
      ((await api(gw.baseUrl, 'GET', `/api/v4/projects/${id}/issues/1/notes?sort=asc`, root())).body as any[]).map((n) => [n.author.username, n.body]);
    expect(await notes(copyId)).toEqual(await notes(projectId));
    // Pipelines with their stages and jobs; what had not finished cannot run here and is canceled.
    const pipelines = async (id: number) => {
      const rows = (await list(id, 'pipelines?sort=asc')) as any[];
      return Promise.all(
        rows.map(async (p) => ({
          iid: p.iid,
          status: p.status,
          sha: p.sha,
          jobs: ((await api(gw.baseUrl, 'GET', `/api/v4/projects/${id}/pipelines/${p.id}/jobs`, root())).body as any[])
            .map((j) => [j.stage, j.name, j.status, j.allow_failure, j.coverage, j.failure_reason ?? null])
            .sort(),
        })),
      );
    };
    const sourcePipelines = await pipelines(projectId);
    expect(await pipelines(copyId)).toEqual(
      sourcePipelines.map((p) =>
        p.status === 'running' ? { ...p, status: 'canceled', jobs: p.jobs.map((j) => [j[0], j[1], 'canceled', j[3], j[4], j[5]]) } : p,
      ),
    );
    expect(sourcePipelines.find((p) => p.iid === 1)!.jobs).toHaveLength(3);
    // Whether a pipeline's ref was protected travels with it.
    expect(await gw.dataSource.query('SELECT iid, protected FROM ci_pipelines WHERE project_id = $1 ORDER BY iid', [copyId])).toEqual([
      { iid: 1, protected: true },
      { iid: 2, protected: false },
    ]);
    // Snippets keep their files and notes.
    const snippets = async (id: number) =>
      Promise.all(
        (await list(id, 'snippets')).map(async (sn) => ({
          title: sn.title,
          visibility: sn.visibility,
          files: sn.files.map((f: any) => f.path),
          notes: ((await api(gw.baseUrl, 'GET', `/api/v4/projects/${id}/snippets/${sn.id}/notes`, root())).body as any[]).map((n) => [
            n.author.username,
            n.body,
          ]),
        })),
      );
    expect(await snippets(copyId)).toEqual(await snippets(projectId));
    expect((await snippets(copyId))[0]).toMatchObject({ title: 'Snip', files: ['a.txt', 'b/c.md'], notes: [['dev', 'nice snippet']] });
    // The counters continue after the imported iids.
    const next = await api(gw.baseUrl, 'POST', `/api/v4/projects/${copyId}/issues`, { ...root(), body: { title: 'after import' } });
    expect(next.body.iid).toBe(4);
  }, 120_000);

  it('writes the same records when the imported copy is exported again: every relation goes both ways', async () => {
    // By the owner (matched by email, an owner of the copy again): root's exports are counted by the rate-limit test.
    expect((await api(gw.baseUrl, 'POST', `/api/v4/projects/${copyId}/export`, { token: owner.token })).status).toBe(202);
    await until(
      () => exportStatus(copyId, owner.token),
      (r) => r.body.export_status === 'finished',
      'export of the copy',
    );
    const response = await fetch(`${gw.baseUrl}/api/v4/projects/${copyId}/export/download`, { headers: { 'PRIVATE-TOKEN': owner.token } });
    expect(response.status).toBe(200);
    const [before, again] = [await entriesOf(exported), await entriesOf(Buffer.from(await response.arrayBuffer()))];
    const unfinished = (status: unknown) => (['success', 'failed', 'canceled', 'skipped'].includes(status as string) ? status : 'canceled');
    /** A record without what an import may not keep: ids, times, users not matched (their notes carry GitLab's "By … (imported from GitLab)" line instead). */
    const normalize = (value: unknown, key = ''): unknown => {
      if (Array.isArray(value)) return value.map((v) => normalize(v));
      if (typeof value === 'string' && key === 'note') return value.replace(/^\*By .+ on \S+ \(imported from GitLab\)\*\n\n/, '');
      if (typeof value !== 'object' || value === null) return key === 'status' ? unfinished(value) : value;
      return Object.fromEntries(
        Object.entries(value)
          .filter(([k]) => !(k === 'id' || k.endsWith('_id') || k.endsWith('_at') || k === 'author' || k === 'user'))
          .map(([k, v]) => [k, normalize(v, k)]),
      );
    };
    const relations = [
      'project_members',
      'labels',
      'milestones',
      'issues',
      'merge_requests',
      'protected_branches',
      'project_badges',
      'snippets',
      'ci_pipelines',
    ];
    for (const relation of relations) {
      const [was, is] = [ndjson(before.get(`tree/project/${relation}.ndjson`)), ndjson(again.get(`tree/project/${relation}.ndjson`))];
      expect(was.length).toBeGreaterThan(0);
      if (relation === 'project_members') {
        // The members whose user was matched by email, with their access level.
        const matched = (rows: any[]) =>
          rows
            .filter((m) => ['owner', 'dev'].includes(m.user?.username))
            .map((m) => [m.user.username, m.access_level])
            .sort();
        expect(matched(is)).toEqual(matched(was));
        continue;
      }
      // The issue made after the import is not in the first archive.
      const kept = relation === 'issues' ? is.filter((i) => i.title !== 'after import') : is;
      expect({ relation, records: normalize(kept) }).toEqual({ relation, records: normalize(was) });
    }
  }, 120_000);

  it('notes authors it cannot match as GitLab does, and lets override_params win over the archive', async () => {
    const started = await upload(exported, { path: 'by-other', 'override_params[description]': 'overridden' }, other.token);
    expect(started.status).toBe(201);
    const status = await waitImport(started.body.id);
    expect(status.import_status).toBe('finished');
    const project = await api(gw.baseUrl, 'GET', `/api/v4/projects/${started.body.id}`, { token: other.token });
    expect(project.body.description).toBe('overridden');
    const notes = (await api(gw.baseUrl, 'GET', `/api/v4/projects/${started.body.id}/issues/2/notes?sort=asc`, { token: other.token })).body as any[];
    // owner@example.com is public: matched; anon has no public email and `other` is no administrator: the importer is the author.
    expect(notes[0].author.username).toBe('owner');
    expect(notes[1].author.username).toBe('other');
    expect(notes[1].body).toMatch(/^\*By anon name on \S+ \(imported from GitLab\)\*\n\nanon says hi$/);
  }, 120_000);

  it('overwrites an existing project only for its owner, replacing it at once', async () => {
    const taken = await upload(exported, { path: 'source' }, owner.token);
    expect(taken.status).toBe(400);
    expect((await upload(exported, { path: 'source', namespace: 'owner', overwrite: 'true' }, dev.token)).status).toBe(403);
    const started = await upload(exported, { path: 'source', overwrite: 'true' }, owner.token);
    expect(started.status).toBe(201);
    // Until the import finishes, the old project answers under the path.
    const status = await waitImport(started.body.id);
    expect(status.import_status).toBe('finished');
    const now = await api(gw.baseUrl, 'GET', `/api/v4/projects/${encodeURIComponent('owner/source')}`, { token: owner.token });
    expect(now.body.id).toBe(started.body.id);
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${projectId}`, { token: owner.token })).status).toBe(404);
    projectId = started.body.id;
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${projectId}/issues`, { token: owner.token })).body).toHaveLength(3);
  }, 120_000);

  let hostileCount = 0;
  it.each([
    ['not gzip', async () => Buffer.from('this is not an archive'), /not a gzip archive/],
    ['no VERSION', async () => archive([{ name: 'tree/project.json', content: '{}' }]), /no VERSION/],
    ['unknown major version', async () => minimal([], '1.0.0'), /version mismatch/i],
    ['path traversal', async () => minimal([{ name: '../../evil.txt', content: 'x' }]), /outside the import directory/],
    ['symlink', async () => minimal([{ name: 'tree/project/issues.ndjson', type: 'symlink', linkname: '/etc/passwd' }]), /not a regular file/],
    ['bomb-sized gzip', async () => minimal([{ name: 'tree/project/big.ndjson', content: Buffer.alloc(MAX_DECOMPRESSED + 1024, 0x20) }]), /larger than/],
    ['corrupt bundle', async () => minimal([{ name: 'project.bundle', content: '# v2 git bundle\nnot really\n' }]), /bundle is not valid/],
    [
      'bad NDJSON line',
      async () => minimal([{ name: 'tree/project/labels.ndjson', content: '{"title":"ok","color":"#112233"}\n{not json\n' }]),
      /labels.ndjson line 2 is not valid JSON/,
    ],
  ])(
    'refuses a hostile archive (%s) with a clear import_error and nothing imported',
    async (label, make, message) => {
      // Imports are limited to 6 a minute per user: the cases take turns.
      const user = hostile[hostileCount++ % 2];
      const started = await upload(await make(), { path: `hostile-${label.replace(/\W+/g, '-')}` }, user.token);
      expect(started.status).toBe(201);
      const status = await waitImport(started.body.id);
      expect(status.import_status).toBe('failed');
      expect(status.import_error).toMatch(message);
      expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${started.body.id}/labels`, root())).body).toEqual([]);
      expect(refs(started.body.id)).toBe('');
    },
    60_000,
  );

  it('records failed relations and skips relations it does not have, finishing the rest', async () => {
    const file = await minimal([
      { name: 'tree/project/issues.ndjson', content: '{"iid":1,"title":"kept","state":"opened"}\n{"iid":2}\n' },
      { name: 'tree/project/releases.ndjson', content: '{"tag":"v1"}\n{"tag":"v2"}\n' },
    ]);
    const started = await upload(file, { path: 'partial' }, hostile[2].token);
    expect(started.status).toBe(201);
    const status = await waitImport(started.body.id);
    expect(status.import_status).toBe('finished');
    expect(status.failed_relations).toEqual([
      expect.objectContaining({ relation_name: 'issues', line_number: 1, exception_class: 'ActiveRecord::RecordInvalid', source: 'process_relation_item!' }),
    ]);
    expect(((await api(gw.baseUrl, 'GET', `/api/v4/projects/${started.body.id}/issues`, root())).body as any[]).map((i) => i.title)).toEqual(['kept']);
  }, 60_000);

  it('creates again what a refused batch rolled back: a label first met in a batch that is then taken record by record', async () => {
    const file = await minimal([
      {
        name: 'tree/project/issues.ndjson',
        content: '{"iid":1,"title":"labelled","state":"opened","label_links":[{"label":{"title":"urgent","color":"#ff0000"}}]}\n{"iid":2}\n',
      },
    ]);
    const started = await upload(file, { path: 'rolled-back-label' }, hostile[3].token);
    expect(started.status).toBe(201);
    const status = await waitImport(started.body.id);
    expect(status.import_status).toBe('finished');
    expect(status.failed_relations).toEqual([expect.objectContaining({ relation_name: 'issues', line_number: 1 })]);
    const labels = (await api(gw.baseUrl, 'GET', `/api/v4/projects/${started.body.id}/labels`, root())).body as any[];
    expect(labels.map((l) => [l.name, l.color])).toEqual([['urgent', '#ff0000']]);
    const issues = (await api(gw.baseUrl, 'GET', `/api/v4/projects/${started.body.id}/issues`, root())).body as any[];
    expect(issues.map((i) => [i.title, i.labels])).toEqual([['labelled', ['urgent']]]);
  }, 60_000);

  it('sends the archive to upload[url] with Content-Type application/gzip', async () => {
    received = [];
    const accepted = await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/export`, {
      token: owner.token,
      body: { upload: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/put-here`, http_method: 'POST' } },
    });
    expect(accepted.status).toBe(202);
    // A file exists already: regeneration keeps it downloadable meanwhile.
    await until(
      () => exportStatus(projectId),
      (r) => r.body.export_status === 'finished',
      'export with upload',
    );
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', type: 'application/gzip' });
    expect(gunzipSync(received[0].bytes).length).toBeGreaterThan(0);
  }, 60_000);

  it('imports from a remote file only with a valid Content-Length and Content-Type application/gzip', async () => {
    const url = `http://127.0.0.1:${(remote.address() as AddressInfo).port}/archive.tar.gz`;
    remoteBody = await minimal([{ name: 'tree/project/labels.ndjson', content: '{"title":"remote","color":"#123456"}\n' }]);
    remoteHeaders = { 'content-type': 'text/html', 'content-length': String(remoteBody.length) };
    const badType = await api(gw.baseUrl, 'POST', '/api/v4/projects/remote-import', { token: owner.token, body: { url, path: 'remote' } });
    expect(badType.status).toBe(400);
    expect(badType.body.message).toMatch(/Content type 'text\/html' not allowed/);
    expect((await api(gw.baseUrl, 'PUT', '/api/v4/application/settings', { ...root(), body: { max_import_size: 1 } })).status).toBe(200);
    remoteHeaders = { 'content-type': 'application/gzip', 'content-length': String(2 * 1024 * 1024) };
    const tooLarge = await api(gw.baseUrl, 'POST', '/api/v4/projects/remote-import', { token: owner.token, body: { url, path: 'remote' } });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.message).toMatch(/too big/);
    remoteHeaders = { 'content-type': 'application/gzip', 'content-length': String(remoteBody.length) };
    const ok = await api(gw.baseUrl, 'POST', '/api/v4/projects/remote-import', { token: owner.token, body: { url, path: 'remote' } });
    expect(ok.status).toBe(201);
    expect((await waitImport(ok.body.id)).import_status).toBe('finished');
    expect(((await api(gw.baseUrl, 'GET', `/api/v4/projects/${ok.body.id}/labels`, root())).body as any[]).map((l) => l.name)).toEqual(['remote']);
    expect(
      (
        await api(gw.baseUrl, 'POST', '/api/v4/projects/remote-import-s3', {
          token: owner.token,
          body: { path: 'x', region: 'r', bucket_name: 'b', file_key: 'k', access_key_id: 'a', secret_access_key: 's' },
        })
      ).status,
    ).toBe(404);
  }, 60_000);

  it("takes what python-gitlab sends to remote-import (overwrite=False) and refuses other schemes with GitLab's text", async () => {
    const client = await createUserWithToken(gw, 'py-importer');
    const url = `http://127.0.0.1:${(remote.address() as AddressInfo).port}/archive.tar.gz`;
    remoteBody = await minimal([{ name: 'tree/project/labels.ndjson', content: '{"title":"py","color":"#123456"}\n' }]);
    remoteHeaders = { 'content-type': 'application/gzip', 'content-length': String(remoteBody.length) };
    const ftp = await api(gw.baseUrl, 'POST', '/api/v4/projects/remote-import', {
      token: client.token,
      body: { url: 'ftp://127.0.0.1/archive.tar.gz', path: 'remote-ftp' },
    });
    // GitLab's text, with this service's 400 prefix as every remote-import refusal here has.
    expect([ftp.status, ftp.body]).toEqual([400, { message: '400 Bad request - File url is blocked: Only allowed schemes are https' }]);
    const odd = await api(gw.baseUrl, 'POST', '/api/v4/projects/remote-import', { token: client.token, form: { url, path: 'remote-odd', overwrite: 'maybe' } });
    expect(odd.status).toBe(400);
    const started = await api(gw.baseUrl, 'POST', '/api/v4/projects/remote-import', {
      token: client.token,
      form: { url, path: 'remote-py', overwrite: 'False' },
    });
    expect([started.status, started.text]).toEqual([201, expect.any(String)]);
    expect((await waitImport(started.body.id)).import_status).toBe('finished');
  }, 60_000);

  it('answers 401, 403 and 404 and limits exports per user', async () => {
    expect((await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/export`, {})).status).toBe(401);
    await addProjectMember(gw, projectId, dev.id, 30).catch(() => undefined);
    expect((await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/export`, { token: dev.token })).status).toBe(403);
    expect((await api(gw.baseUrl, 'GET', `/api/v4/projects/${projectId}/export`, { token: other.token })).status).toBe(404);
    expect((await api(gw.baseUrl, 'GET', '/api/v4/projects/999999/import', root())).status).toBe(404);
    expect((await api(gw.baseUrl, 'POST', '/api/v4/projects/import', { form: { path: 'x' } })).status).toBe(401);
    const statuses: number[] = [];
    // 13 requests fall in at most two windows of one minute: at most 12 pass.
    for (let i = 0; i < 13; i++) statuses.push((await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/export`, root())).status);
    expect(statuses.slice(0, 6).every((s) => s === 202)).toBe(true);
    expect(statuses).toContain(429);
  }, 60_000);

  it('works with @gitbeaker/rest ProjectImportExport', async () => {
    const client = new Gitlab({ host: gw.baseUrl, token: other.token, rateLimits: {} });
    const own = await api(gw.baseUrl, 'POST', '/api/v4/projects', { token: other.token, body: { name: 'Beaker', path: 'beaker' } });
    await client.ProjectImportExports.scheduleExport(own.body.id, undefined as never);
    const done = await until(
      () => client.ProjectImportExports.showExportStatus(own.body.id),
      (s: any) => s.export_status === 'finished',
      'gitbeaker export',
      25_000,
    );
    expect((done as any)._links.api_url).toMatch(/\/export\/download$/);
    const blob = (await client.ProjectImportExports.download(own.body.id)) as unknown as Blob;
    const imported = await client.ProjectImportExports.import({ content: blob, filename: 'export.tar.gz' }, 'beaker-copy');
    expect((imported as any).import_status).toBe('scheduled');
    const status = await until(
      () => client.ProjectImportExports.showImportStatus(imported.id as number),
      (s: any) => ['finished', 'failed'].includes(s.import_status),
      'gitbeaker import',
      25_000,
    );
    expect((status as any).import_status).toBe('finished');
  }, 60_000);
});
