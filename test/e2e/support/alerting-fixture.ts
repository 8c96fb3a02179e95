import { api, TestGateway } from './test-gateway';

/** Helpers of the alerting e2e tests: users, projects, integrations and notify calls over HTTP. */
export class AlertingFixture {
  readonly tokens: Record<string, string> = {};
  readonly userIds: Record<string, number> = {};

  constructor(private readonly gw: TestGateway) {}

  async user(username: string): Promise<string> {
    const created = await api(this.gw.baseUrl, 'POST', '/api/v4/users', {
      token: this.gw.rootToken,
      body: { username, name: username, email: `${username}@example.com`, password: 'secret-password-1' },
    });
    if (created.status !== 201) throw new Error(`user ${username}: ${created.status} ${created.text}`);
    const pat = await api(this.gw.baseUrl, 'POST', `/api/v4/users/${created.body.id}/personal_access_tokens`, {
      token: this.gw.rootToken,
      body: { name: 'e2e', scopes: ['api'] },
    });
    this.tokens[username] = pat.body.token;
    this.userIds[username] = created.body.id;
    return pat.body.token;
  }

  /** A project owned by root, in a new group (`group/sub/...` creates the subgroups). */
  async project(groupPath: string, path: string): Promise<{ id: number; fullPath: string }> {
    let parentId: number | undefined;
    let full = '';
    for (const part of groupPath.split('/')) {
      full = full ? `${full}/${part}` : part;
      const existing = await api(this.gw.baseUrl, 'GET', `/api/v4/groups/${encodeURIComponent(full)}`, { token: this.gw.rootToken });
      if (existing.status === 200) {
        parentId = existing.body.id;
        continue;
      }
      const group = await api(this.gw.baseUrl, 'POST', '/api/v4/groups', { token: this.gw.rootToken, body: { name: part, path: part, parent_id: parentId } });
      if (group.status !== 201) throw new Error(`group ${full}: ${group.status} ${group.text}`);
      parentId = group.body.id;
    }
    const project = await api(this.gw.baseUrl, 'POST', '/api/v4/projects', { token: this.gw.rootToken, body: { name: path, path, namespace_id: parentId } });
    if (project.status !== 201) throw new Error(`project ${path}: ${project.status} ${project.text}`);
    return { id: project.body.id, fullPath: project.body.path_with_namespace };
  }

  async member(projectId: number, username: string, accessLevel: number): Promise<void> {
    const added = await api(this.gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/members`, {
      token: this.gw.rootToken,
      body: { user_id: this.userIds[username], access_level: accessLevel },
    });
    if (added.status !== 201) throw new Error(`member ${username}: ${added.status} ${added.text}`);
  }

  async integration(projectId: number, body: Record<string, unknown> = {}): Promise<{ id: number; url: string; token: string; path: string }> {
    const created = await api(this.gw.baseUrl, 'POST', `/api/v4/projects/${projectId}/alert_management/http_integrations`, {
      token: this.gw.rootToken,
      body: { name: `integration-${Math.random().toString(36).slice(2, 8)}`, ...body },
    });
    if (created.status !== 201) throw new Error(`integration: ${created.status} ${created.text}`);
    return { id: created.body.id, url: created.body.url, token: created.body.token, path: new URL(created.body.url).pathname };
  }

  /** POSTs a raw body to a notify path. */
  async notify(path: string, body: unknown, options: { token?: string; basic?: string; headers?: Record<string, string>; raw?: string | Buffer } = {}) {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    if (options.basic !== undefined) headers.authorization = `Basic ${Buffer.from(`:${options.basic}`).toString('base64')}`;
    const response = await fetch(`${this.gw.baseUrl}${path}`, { method: 'POST', headers, body: options.raw ?? JSON.stringify(body) });
    const text = await response.text();
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: the test asserts on it
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  async alert(projectId: number, iid: number): Promise<any> {
    const response = await api(this.gw.baseUrl, 'GET', `/api/v4/projects/${projectId}/alert_management/alerts/${iid}`, { token: this.gw.rootToken });
    if (response.status !== 200) throw new Error(`alert ${iid}: ${response.status} ${response.text}`);
    return response.body;
  }
}
