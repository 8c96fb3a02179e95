import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Gitlab } from '@gitbeaker/rest';
import { api, createUserWithToken, startTestGateway, TestGateway } from './support/test-gateway';

type Client = InstanceType<typeof Gitlab>;

const GIT_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  LC_ALL: 'C',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  GIT_AUTHOR_NAME: 'Badge Tester',
  GIT_AUTHOR_EMAIL: 'badges@example.com',
  GIT_COMMITTER_NAME: 'Badge Tester',
  GIT_COMMITTER_EMAIL: 'badges@example.com',
};
const git = (args: string[], cwd?: string): string => execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' }).trim();

/** Project and group badges over HTTP, with placeholders rendered from the project and its repository. */
describe('Badges', () => {
  let gw: TestGateway;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const clients: Record<string, Client> = {};
  let projectId: number;
  let work: string;

  const as = (who: string) => ({ token: who === 'root' ? gw.rootToken : tokens[who] });
  const projectPath = (suffix = '') => `/api/v4/projects/${projectId}/badges${suffix}`;

  const createUser = async (username: string) => {
    const user = await createUserWithToken(gw, username, { attributes: { name: username } });
    tokens[username] = user.token;
    ids[username] = user.id;
    clients[username] = new Gitlab({ host: gw.baseUrl, token: user.token, rateLimits: {} });
  };

  beforeAll(async () => {
    gw = await startTestGateway('badges', { EXTERNAL_URL: 'https://git.example.test:8443' });
    work = mkdtempSync(join(tmpdir(), 'badges-work-'));
    for (const name of ['owner', 'maint', 'dev', 'outsider']) await createUser(name);
    const top = await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...as('owner'), body: { name: 'Acme', path: 'acme', visibility: 'public' } });
    expect(top.status).toBe(201);
    ids.top = top.body.id;
    const sub = await api(gw.baseUrl, 'POST', '/api/v4/groups', {
      ...as('owner'),
      body: { name: 'Tools', path: 'tools', parent_id: ids.top, visibility: 'public' },
    });
    expect(sub.status).toBe(201);
    ids.sub = sub.body.id;
    const other = await api(gw.baseUrl, 'POST', '/api/v4/groups', { ...as('owner'), body: { name: 'Other', path: 'other', visibility: 'public' } });
    ids.other = other.body.id;
    const project = await api(gw.baseUrl, 'POST', '/api/v4/projects', {
      ...as('owner'),
      body: { name: 'Command Line', path: 'cli', namespace_id: ids.sub, visibility: 'public', default_branch: 'main' },
    });
    expect(project.status).toBe(201);
    projectId = project.body.id;
    for (const [user, level] of [
      ['maint', 40],
      ['dev', 30],
    ] as const) {
      expect(
        (await api(gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/members`, { ...as('owner'), body: { user_id: ids[user], access_level: level } })).status,
      ).toBe(201);
    }
    clients.root = new Gitlab({ host: gw.baseUrl, token: gw.rootToken, rateLimits: {} });
  });
  afterAll(async () => {
    await gw.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** Puts a new commit on `main` of the project's bare repository (created if the project has none yet). */
  const commitToMain = (message: string): string => {
    const bare = join(gw.config.repositoriesDir, `${projectId}.git`);
    if (!existsSync(bare)) git(['init', '-q', '--bare', '--initial-branch=main', bare]);
    const tree = join(work, 'tree');
    if (!existsSync(tree)) {
      git(['init', '-q', '--initial-branch=main', tree]);
    }
    writeFileSync(join(tree, 'README.md'), `${message}\n`);
    git(['add', 'README.md'], tree);
    git(['commit', '-q', '-m', message], tree);
    git(['push', '-q', '--force', bare, 'HEAD:refs/heads/main'], tree);
    return git(['--git-dir', bare, 'rev-parse', 'refs/heads/main']);
  };

  it('adds a project badge with the client and renders every placeholder for the project', async () => {
    const sha = commitToMain('first');
    const badge = await clients.maint.ProjectBadges.add(
      projectId,
      'https://%{gitlab_server}/%{project_path}/-/commits/%{default_branch}?id=%{project_id}&sha=%{commit_sha}',
      'https://img.example.com/%{project_name}/%{project_title}/%{group_name}/%{project_namespace}.svg',
      { name: 'Pipeline' },
    );
    expect(badge).toEqual({
      id: expect.any(Number),
      name: 'Pipeline',
      link_url: 'https://%{gitlab_server}/%{project_path}/-/commits/%{default_branch}?id=%{project_id}&sha=%{commit_sha}',
      image_url: 'https://img.example.com/%{project_name}/%{project_title}/%{group_name}/%{project_namespace}.svg',
      rendered_link_url: `https://git.example.test/acme/tools/cli/-/commits/main?id=${projectId}&sha=${sha}`,
      rendered_image_url: 'https://img.example.com/cli/Command Line/acme/tools/acme/tools/cli.svg',
      kind: 'project',
    });
    ids.pipeline = badge.id as number;
    const events = await gw.dataSource.query(
      `SELECT payload FROM outbox_events WHERE payload->>'type' = 'badge.created' AND (payload->>'project_id')::int = $1`,
      [projectId],
    );
    expect(events).toHaveLength(1);
    expect(events[0].payload).toMatchObject({
      actor: ids.maint,
      group_id: ids.sub,
      target: { type: 'badge', id: badge.id },
      data: { kind: 'project', name: 'Pipeline' },
    });
  });

  it('follows the head of the default branch in %{commit_sha}', async () => {
    const sha = commitToMain('second');
    const shown = await api(gw.baseUrl, 'GET', projectPath(`/${ids.pipeline}`), {});
    expect(shown.status).toBe(200);
    expect(shown.body.rendered_link_url).toContain(`sha=${sha}`);
  });

  it('lists group badges of every ancestor group with kind group, rendered for the project', async () => {
    const topBadge = await clients.owner.GroupBadges.add(ids.top, 'https://top.example.com/%{project_path}', 'https://top.example.com/badge.svg', {
      name: 'Top',
    });
    expect(topBadge).toMatchObject({ kind: 'group', rendered_link_url: 'https://top.example.com/%{project_path}' });
    const subBadge = await api(gw.baseUrl, 'POST', `/api/v4/groups/${ids.sub}/badges`, {
      ...as('owner'),
      body: { link_url: 'https://sub.example.com/%{project_id}', image_url: 'https://sub.example.com/b.svg', name: 'pipeline' },
    });
    expect(subBadge.status).toBe(201);
    const otherBadge = await api(gw.baseUrl, 'POST', `/api/v4/groups/${ids.other}/badges`, {
      ...as('owner'),
      body: { link_url: 'https://other.example.com/', image_url: 'https://other.example.com/b.svg' },
    });
    expect(otherBadge.status).toBe(201);
    ids.topBadge = topBadge.id as number;
    ids.subBadge = subBadge.body.id;

    const listed = await clients.outsider.ProjectBadges.all(projectId);
    expect(listed.map((badge) => [badge.id, badge.kind])).toEqual([
      [ids.pipeline, 'project'],
      [ids.topBadge, 'group'],
      [ids.subBadge, 'group'],
    ]);
    expect(listed.find((badge) => badge.id === ids.topBadge)!.rendered_link_url).toBe('https://top.example.com/acme/tools/cli');
    expect(listed.find((badge) => badge.id === ids.subBadge)!.rendered_link_url).toBe(`https://sub.example.com/${projectId}`);
    // the group's own list: its badges only, unrendered
    const groupList = await clients.outsider.GroupBadges.all(ids.sub);
    expect(groupList).toEqual([expect.objectContaining({ id: ids.subBadge, kind: 'group', rendered_link_url: 'https://sub.example.com/%{project_id}' })]);
    // anonymous callers read the badges of a public project
    const anonymous = await api(gw.baseUrl, 'GET', projectPath(), {});
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toHaveLength(3);
  });

  it('filters by exact, case-sensitive name', async () => {
    const exact = await api(gw.baseUrl, 'GET', projectPath('?name=Pipeline'), as('dev'));
    expect(exact.body.map((badge: { id: number }) => badge.id)).toEqual([ids.pipeline]);
    const lower = await api(gw.baseUrl, 'GET', projectPath('?name=pipeline'), as('dev'));
    expect(lower.body.map((badge: { id: number }) => badge.id)).toEqual([ids.subBadge]);
    expect((await api(gw.baseUrl, 'GET', projectPath('?name=Pipe'), as('dev'))).body).toEqual([]);
  });

  it('paginates the list', async () => {
    const page = await api(gw.baseUrl, 'GET', projectPath('?per_page=2&page=2'), {});
    expect(page.status).toBe(200);
    expect(page.body.map((badge: { id: number }) => badge.id)).toEqual([ids.subBadge]);
    expect(page.headers.get('x-total')).toBe('3');
  });

  it('renders a preview for maintainers', async () => {
    const preview = await clients.maint.ProjectBadges.preview(
      projectId,
      'https://x.example.com/%{project_path}/%{default_branch}',
      'https://x.example.com/%{project_id}.svg',
    );
    expect(preview).toEqual({
      link_url: 'https://x.example.com/%{project_path}/%{default_branch}',
      image_url: 'https://x.example.com/%{project_id}.svg',
      rendered_link_url: 'https://x.example.com/acme/tools/cli/main',
      rendered_image_url: `https://x.example.com/${projectId}.svg`,
    });
    expect((await api(gw.baseUrl, 'GET', projectPath('/render?link_url=https://a.example.com&image_url=https://b.example.com'), as('dev'))).status).toBe(403);
    const missing = await api(gw.baseUrl, 'GET', projectPath('/render?link_url=https://a.example.com'), as('maint'));
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ message: '400 (Bad request) "image_url" not given' });
  });

  it('edits a project badge and records the change', async () => {
    const edited = await clients.maint.ProjectBadges.edit(projectId, ids.pipeline, { name: 'CI', imageUrl: 'https://img.example.com/ci.svg' });
    expect(edited).toMatchObject({
      id: ids.pipeline,
      name: 'CI',
      image_url: 'https://img.example.com/ci.svg',
      rendered_image_url: 'https://img.example.com/ci.svg',
    });
    expect(edited.link_url).toContain('%{project_path}');
    const events = await gw.dataSource.query(
      `SELECT payload FROM outbox_events WHERE payload->>'type' = 'badge.updated' AND (payload->'target'->>'id')::int = $1`,
      [ids.pipeline],
    );
    expect(events).toHaveLength(1);
    expect(events[0].payload.data.changed).toEqual(['image_url', 'name']);
  });

  it('refuses invalid URLs with 400 in the validation shape', async () => {
    const bad = await api(gw.baseUrl, 'POST', projectPath(), { ...as('maint'), body: { link_url: 'ftp://example.com/x', image_url: 'not a url' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: { link_url: ['is blocked: Only allowed schemes are http, https'], image_url: ['must be a valid URL'] } });
    const missing = await api(gw.baseUrl, 'POST', projectPath(), { ...as('maint'), body: { link_url: 'https://example.com' } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ message: '400 (Bad request) "image_url" not given' });
    const badUpdate = await api(gw.baseUrl, 'PUT', projectPath(`/${ids.pipeline}`), { ...as('maint'), body: { link_url: 'javascript:alert(1)' } });
    expect(badUpdate.status).toBe(400);
    expect(badUpdate.body).toEqual({ message: { link_url: ['is blocked: Only allowed schemes are http, https'] } });
    const badGroup = await api(gw.baseUrl, 'POST', `/api/v4/groups/${ids.sub}/badges`, {
      ...as('owner'),
      body: { link_url: '/relative', image_url: 'https://example.com/x.svg' },
    });
    expect(badGroup.status).toBe(400);
  });

  it('keeps writes to maintainers (project) and owners (group)', async () => {
    const body = { link_url: 'https://example.com', image_url: 'https://example.com/x.svg' };
    expect((await api(gw.baseUrl, 'POST', projectPath(), { ...as('dev'), body })).status).toBe(403);
    expect((await api(gw.baseUrl, 'POST', projectPath(), { body })).status).toBe(401);
    expect((await api(gw.baseUrl, 'DELETE', projectPath(`/${ids.pipeline}`), as('dev'))).status).toBe(403);
    expect((await api(gw.baseUrl, 'POST', `/api/v4/groups/${ids.sub}/badges`, { ...as('maint'), body })).status).toBe(403);
    expect((await api(gw.baseUrl, 'PUT', `/api/v4/groups/${ids.sub}/badges/${ids.subBadge}`, { ...as('outsider'), body: { name: 'x' } })).status).toBe(403);
  });

  it('does not change or remove a group badge through the project', async () => {
    const shown = await api(gw.baseUrl, 'GET', projectPath(`/${ids.topBadge}`), as('maint'));
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ kind: 'group', rendered_link_url: 'https://top.example.com/acme/tools/cli' });
    const removed = await api(gw.baseUrl, 'DELETE', projectPath(`/${ids.topBadge}`), as('maint'));
    expect(removed.status).toBe(403);
    expect(removed.body).toEqual({ message: 'To delete a Group badge please use the Group endpoint' });
    const edited = await api(gw.baseUrl, 'PUT', projectPath(`/${ids.topBadge}`), { ...as('maint'), body: { name: 'hijacked' } });
    expect(edited.status).toBe(403);
    expect((await api(gw.baseUrl, 'GET', `/api/v4/groups/${ids.top}/badges/${ids.topBadge}`, {})).body.name).toBe('Top');
    // a badge of an unrelated group is not part of the project at all
    const unrelated = (await api(gw.baseUrl, 'GET', `/api/v4/groups/${ids.other}/badges`, {})).body[0].id;
    expect((await api(gw.baseUrl, 'GET', projectPath(`/${unrelated}`), as('maint'))).status).toBe(404);
    expect((await api(gw.baseUrl, 'GET', projectPath('/abc'), as('maint'))).status).toBe(400);
  });

  it('edits and removes group badges through the group, and project badges through the project', async () => {
    const edited = await clients.owner.GroupBadges.edit(ids.sub, ids.subBadge, { linkUrl: 'https://sub.example.com/%{default_branch}' });
    expect(edited.link_url).toBe('https://sub.example.com/%{default_branch}');
    expect((await api(gw.baseUrl, 'GET', projectPath(`/${ids.subBadge}`), {})).body.rendered_link_url).toBe('https://sub.example.com/main');
    const preview = await api(
      gw.baseUrl,
      'GET',
      `/api/v4/groups/${ids.sub}/badges/render?link_url=https://a.example.com/%25{project_path}&image_url=https://b.example.com/x.svg`,
      as('owner'),
    );
    expect(preview.status).toBe(200);
    expect(preview.body.rendered_link_url).toBe('https://a.example.com/%{project_path}');

    await clients.owner.GroupBadges.remove(ids.sub, ids.subBadge);
    await clients.maint.ProjectBadges.remove(projectId, ids.pipeline);
    expect((await api(gw.baseUrl, 'GET', projectPath(`/${ids.pipeline}`), {})).status).toBe(404);
    const remaining = await clients.dev.ProjectBadges.all(projectId);
    expect(remaining.map((badge) => badge.id)).toEqual([ids.topBadge]);
    const destroyed = await gw.dataSource.query(
      `SELECT payload->>'project_id' AS project, payload->>'group_id' AS "group" FROM outbox_events WHERE payload->>'type' = 'badge.destroyed' ORDER BY seq`,
    );
    expect(destroyed).toEqual([
      { project: null, group: String(ids.sub) },
      { project: String(projectId), group: String(ids.sub) },
    ]);
  });

  it('renders an empty commit for a project without commits', async () => {
    const empty = await api(gw.baseUrl, 'POST', '/api/v4/projects', { ...as('owner'), body: { path: 'empty', namespace_id: ids.top, visibility: 'public' } });
    expect(empty.status).toBe(201);
    const preview = await api(
      gw.baseUrl,
      'GET',
      `/api/v4/projects/${empty.body.id}/badges/render?link_url=${encodeURIComponent('https://x.example.com/c/%{commit_sha}')}&image_url=https://x.example.com/i.svg`,
      as('owner'),
    );
    expect(preview.status).toBe(200);
    expect(preview.body.rendered_link_url).toBe('https://x.example.com/c/');
  });
});
