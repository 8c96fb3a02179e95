import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { EventsProjector } from '@app/events';
import { eventually } from '@app/testing';
import { startProjector } from '../../apps/projector/src/main';
import { cloneUrl, GitClient } from './support/git-client';
import { addProjectMember, api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

/**
 * Debian's python-gitlab 3.12 (the library and its CLI), unchanged, against the gateway: each area
 * is a script in support/python-gitlab/ whose JSON answer is checked against the REST API.
 * Where python-gitlab needs an endpoint the service lacks, or reads an answer it cannot use, the
 * script leaves that call out with a comment naming the gap (docs/api-behaviour.md, "Real clients").
 */
const PYTHON = '/usr/bin/python3';
const SCRIPTS = join(__dirname, 'support', 'python-gitlab');
const CI_CONFIG = 'build:\n  stage: build\n  script: [make]\nunit:\n  stage: test\n  script: [make test]\n';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('GitLab API client compatibility (python-gitlab 3.12)', () => {
  let gw: TestGateway;
  let projector: INestApplicationContext;
  let home: string;
  const git = new GitClient();
  let projectId: number;
  let projectPath: string;
  let mainSha: string;

  function exec(file: string, args: string[], env: Record<string, string>): Promise<Run> {
    return new Promise((resolve) => {
      execFile(
        file,
        args,
        { env: { PATH: '/usr/bin:/bin', HOME: home, LC_ALL: 'C.UTF-8', PYTHONDONTWRITEBYTECODE: '1', ...env }, timeout: 120_000 },
        (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  /** Runs support/python-gitlab/<script>.py and returns the JSON it printed. */
  async function python<T = any>(script: string, args: Record<string, unknown>, token = gw.rootToken): Promise<T> {
    const run = await exec(PYTHON, [join(SCRIPTS, `${script}.py`), JSON.stringify(args)], { GITLAB_URL: gw.baseUrl, GITLAB_TOKEN: token });
    if (run.code !== 0) throw new Error(`${script}.py failed (${run.code}):\n${run.stderr}`);
    return JSON.parse(run.stdout) as T;
  }

  async function rest<T = any>(path: string): Promise<T> {
    const res = await api<T>(gw.baseUrl, 'GET', `/api/v4${path}`, { token: gw.rootToken });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text}`);
    return res.body;
  }

  beforeAll(async () => {
    gw = await startTestGateway('python-gitlab');
    // Contribution events are projected from Kafka by the projector.
    projector = await startProjector(gw.config);
    await projector.get(EventsProjector).start();
    home = mkdtempSync(join(tmpdir(), 'svc-python-gitlab-'));
  });
  afterAll(async () => {
    git.cleanup();
    rmSync(home, { recursive: true, force: true });
    await projector?.close();
    await gw?.close();
  });

  it('creates, reads, lists, updates, stars and archives a project', async () => {
    const out = await python('projects', { name: 'Tour' });
    projectId = out.id;
    projectPath = out.path_with_namespace;
    const project = await rest(`/projects/${projectId}`);
    expect(out).toMatchObject({
      path_with_namespace: 'root/tour',
      default_branch: 'main',
      by_id: 'Tour',
      by_path: projectId,
      listed: [projectId],
      owned: [projectId],
      after_save: 'second words',
      star_count: 1,
      starred: [projectId],
      star_count_after: 0,
      archived: true,
      listed_archived: [projectId],
      unarchived: false,
    });
    expect(project).toMatchObject({ path_with_namespace: out.path_with_namespace, description: 'second words', star_count: 0, archived: false });
  });

  it('creates a group with a subgroup and a project, and members of both', async () => {
    const grace = await createUserWithToken(gw, 'grace');
    const out = await python('groups', { group: 'Platform', project: 'Router', user_id: grace.id });
    expect(out).toMatchObject({
      full_path: 'platform',
      subgroups: ['platform/sub'],
      subgroup_parent: out.group_id,
      group_projects: [out.project_id],
      project_path: 'platform/router',
      group_members: { root: 50, grace: 40 },
      project_member: 50,
      project_members: { grace: 50 },
      listed: ['platform'],
    });
    expect(out.project_members_all).toEqual(['grace', 'root']);
    const members = await rest<{ username: string; access_level: number }[]>(`/groups/${out.group_id}/members`);
    expect(members.map((m) => [m.username, m.access_level]).sort()).toEqual([
      ['grace', 40],
      ['root', 50],
    ]);
    expect((await rest(`/projects/${out.project_id}`)).namespace.full_path).toBe('platform');
  });

  it('creates a branch from a pushed commit and protects it', async () => {
    const work = git.dir('tour');
    await git.ok(['clone', '-q', cloneUrl(gw.baseUrl, projectPath, { username: 'root', token: gw.rootToken }), work]);
    mainSha = await git.commitFile(work, '.gitlab-ci.yml', CI_CONFIG, 'Add CI');
    await git.ok(['push', '-q', 'origin', 'HEAD:refs/heads/main'], { cwd: work });
    await git.ok(['checkout', '-q', '-b', 'feature'], { cwd: work });
    await git.commitFile(work, 'feature.txt', 'feature\n', 'Add the feature');
    await git.ok(['push', '-q', 'origin', 'HEAD:refs/heads/feature'], { cwd: work });

    const out = await python('branches', { project_id: projectId, sha: mainSha });
    expect(out).toEqual({
      name: 'release',
      commit: mainSha,
      names: ['feature', 'main', 'release'],
      protected: true,
      protected_name: 'release',
      push_levels: [40],
      merge_levels: [30],
      protected_list: ['main', 'release'],
      scratch_gone: { error: 'GitlabGetError', code: 404 },
    });
    expect((await rest(`/projects/${projectId}/repository/branches/release`)).commit.id).toBe(mainSha);
    const protectedBranch = await rest(`/projects/${projectId}/protected_branches/release`);
    expect(protectedBranch.push_access_levels.map((l: { access_level: number }) => l.access_level)).toEqual([40]);
  });

  it('works issues with labels, a milestone, notes and award emoji', async () => {
    const out = await python('issues', { project_id: projectId });
    expect(out).toMatchObject({
      iid: 1,
      title: 'Alerts drop',
      state: 'closed',
      labels: ['bug', 'ops'],
      milestone: 'v1.0',
      milestone_state_closed: 'closed',
      milestone_state: 'active',
      label_names: ['bug', 'ops'],
      label_description: 'broken',
      notes: ['seen on staging twice'],
      issue_awards: ['thumbsup'],
      note_awards: ['eyes'],
      note_award: 'eyes',
      closed_list: [1],
      by_label: [1],
      milestone_issues: [1],
      global: [out.id],
    });
    expect(out.label_color.toLowerCase()).toBe('#d9534f');
    const issue = await rest(`/projects/${projectId}/issues/1`);
    expect(issue).toMatchObject({ id: out.id, state: 'closed', labels: ['bug', 'ops'], milestone: { title: 'v1.0' } });
    const note = await rest(`/projects/${projectId}/issues/1/notes/${out.note_id}`);
    expect(note.body).toBe('seen on staging twice');
    const awards = await rest<{ id: number; name: string }[]>(`/projects/${projectId}/issues/1/award_emoji`);
    expect(awards.map((a) => [a.id, a.name])).toEqual([out.issue_award]);
  });

  it('opens a merge request, approves it through rules, unapproves, approves again and merges it', async () => {
    const reviewer = await createUserWithToken(gw, 'reviewer');
    await addProjectMember(gw, projectId, reviewer.id, 30);
    const out = await python('merge_requests', { project_id: projectId, source: 'feature', reviewer_id: reviewer.id, reviewer_token: reviewer.token });
    expect(out).toMatchObject({
      iid: 1,
      project_rules: [['reviewers', 1]],
      mr_rule: 'extra',
      mr_rules: ['extra', 'reviewers'],
      approved_state: true,
      approved_by: ['reviewer'],
      state_rules: [
        ['extra', true],
        ['reviewers', true],
      ],
      after_unapprove: [],
      merge_state: 'merged',
      state: 'merged',
      notes: ['looks right'],
      listed: [1],
    });
    const mr = await rest(`/projects/${projectId}/merge_requests/1`);
    expect(mr).toMatchObject({ state: 'merged', merge_commit_sha: out.merge_commit_sha, source_branch: 'feature', target_branch: 'main' });
    expect(mr.merge_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    expect((await rest(`/projects/${projectId}/repository/branches/main`)).commit.id).toBe(out.merge_commit_sha);
    const approvals = await rest(`/projects/${projectId}/merge_requests/1/approvals`);
    expect(approvals.approved_by.map((a: { user: { username: string } }) => a.user.username)).toEqual(['reviewer']);
  });

  it('lists pipelines from the push, creates one, reads its jobs and cancels it', async () => {
    const out = await python('pipelines', { project_id: projectId });
    const [id, ref, sha, source] = out.created as [number, string, string, string];
    const main = (await rest(`/projects/${projectId}/repository/branches/main`)).commit.id;
    expect([ref, sha, source]).toEqual(['main', main, 'api']);
    const pushed = (out.pushed as [number, string, string][]).find(([, r, s]) => r === 'main' && s === mainSha);
    expect(pushed).toBeDefined();
    expect(out.pipeline_jobs).toEqual(['build', 'unit']);
    expect(out.job[4]).toBe(id);
    expect(out.cancelled).toBe('canceled');
    const pipeline = await rest(`/projects/${projectId}/pipelines/${id}`);
    expect(pipeline).toMatchObject({ id, ref: 'main', sha: main, status: 'canceled' });
    const job = await rest(`/projects/${projectId}/jobs/${out.job[0]}`);
    expect([job.id, job.name, job.stage, job.pipeline.id]).toEqual(out.job.filter((_: unknown, i: number) => i !== 3));
    const jobs = await rest<{ id: number }[]>(`/projects/${projectId}/jobs?per_page=100`);
    expect(out.project_jobs).toEqual(jobs.map((j) => j.id).sort((a, b) => a - b));
    expect(out.by_ref).toContain(id);
    expect(out.by_ref).toContain(pushed![0]);
  });

  it('creates a user with tokens, blocks and unblocks them', async () => {
    const out = await python('users', { username: 'tourist' });
    expect(out).toMatchObject({
      username: 'tourist',
      found: [out.id],
      token_scopes: ['api'],
      me: 'tourist',
      impersonation: ['imp', true],
      impersonations: ['imp'],
      tokens: ['tour'],
      blocked: true,
      state_blocked: 'blocked',
      unblocked: true,
      state_active: 'active',
    });
    // A blocked user's token is refused (the client raises on the 401).
    expect(out.refused_while_blocked).toEqual({ error: 'GitlabAuthenticationError', code: 401 });
    expect(await rest(`/users/${out.id}`)).toMatchObject({ username: 'tourist', state: 'active' });
    const tokens = await rest<{ id: number; name: string }[]>(`/personal_access_tokens?user_id=${out.id}`);
    expect(tokens.map((t) => [t.id, t.name])).toEqual([[out.token_id, 'tour']]);
  });

  it('lists, tests and deletes system hooks; create and get choke on the one-element array', async () => {
    const url = 'http://127.0.0.1:9/hook';
    const out = await python('hooks', { url });
    // POST /hooks and GET /hooks/:id answer [hook] (the spec); python-gitlab expects an object.
    expect(out.created).toMatchObject({ error: 'GitlabParsingError' });
    expect(out.fetched).toMatchObject({ error: 'GitlabParsingError' });
    const [id, listedUrl, pushEvents] = out.listed[0] as [number, string, boolean];
    expect(out.listed).toHaveLength(1);
    expect([listedUrl, pushEvents]).toEqual([url, true]);
    expect(out.tested).toEqual({ ok: true, value: 'project_create' });
    expect(out.deleted).toBeNull();
    expect(out.after_delete).toEqual([]);
    expect(await rest('/hooks')).toEqual([]);
    expect(id).toBeGreaterThan(0);
  });

  it('reads the events of the caller, a project and a user', async () => {
    const reviewer = await rest<{ id: number }[]>('/users?username=reviewer');
    const out = await eventually(
      async () => {
        const events = await python('events', { project_id: projectId, user_id: reviewer[0].id });
        return events.user.includes('approved') && events.project.some((e: string[]) => e[0] === 'accepted') ? events : undefined;
      },
      'the merge and approval events',
      30_000,
      250,
    );
    const projectEvents = await rest<{ action_name: string; target_type: string | null; target_title: string | null }[]>(
      `/projects/${projectId}/events?per_page=100`,
    );
    expect(out.project).toEqual(projectEvents.map((e) => [e.action_name, e.target_type, e.target_title]));
    expect(out.project).toContainEqual(['opened', 'Issue', 'Alerts drop']);
    expect(out.project).toContainEqual(['accepted', 'MergeRequest', 'Add feature']);
    expect(out.project_issues).toContain('Alerts drop');
    expect(out.mine).toContainEqual(['opened', 'MergeRequest', projectId]);
    // python-gitlab 3.12 has no alert management objects: alerts stay covered by the REST tests.
  });

  it('runs everyday CLI commands (project list, project-issue create)', async () => {
    const config = join(home, 'python-gitlab.cfg');
    writeFileSync(config, `[global]\ndefault = local\n\n[local]\nurl = ${gw.baseUrl}\nprivate_token = ${gw.rootToken}\napi_version = 4\n`);
    const cli = (args: string[]) => exec('/usr/bin/python-gitlab', ['-c', config, '-o', 'json', ...args], {});

    const list = await cli(['project', 'list', '--search', 'tour']);
    expect(list.code).toBe(0);
    expect((JSON.parse(list.stdout) as { id: number; path_with_namespace: string }[]).map((p) => [p.id, p.path_with_namespace])).toEqual([
      [projectId, 'root/tour'],
    ]);

    const created = await cli(['project-issue', 'create', '--project-id', String(projectId), '--title', 'From the CLI', '--description', 'typed']);
    expect(created.code).toBe(0);
    const issue = JSON.parse(created.stdout) as { iid: number; title: string; state: string };
    expect(await rest(`/projects/${projectId}/issues/${issue.iid}`)).toMatchObject({ title: 'From the CLI', description: 'typed', state: 'opened' });

    const module = await exec(PYTHON, ['-m', 'gitlab', '-c', config, 'project-issue', 'list', '--project-id', String(projectId), '--state', 'opened'], {});
    expect(module.code).toBe(0);
    expect(module.stdout).toContain(`iid: ${issue.iid}`);

    const missing = await cli(['project', 'get', '--id', '999999']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('404');
  });
});
