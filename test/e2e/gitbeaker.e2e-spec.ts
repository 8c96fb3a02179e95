import { Gitlab } from '@gitbeaker/rest';
import { startTestGateway, TestGateway } from './support/test-gateway';

/** The real GitLab API client, unchanged, against the gateway. */
describe('GitLab API client compatibility (@gitbeaker/rest)', () => {
  let gw: TestGateway;
  let root: InstanceType<typeof Gitlab>;

  beforeAll(async () => {
    gw = await startTestGateway('gitbeaker');
    root = new Gitlab({ host: gw.baseUrl, token: gw.rootToken, rateLimits: {} });
  });
  afterAll(() => gw.close());

  it('reads the current user', async () => {
    const me = await root.Users.showCurrentUser();
    expect(me.username).toBe('root');
    expect(me.is_admin).toBe(true);
  });

  it('creates a user, a token for it, and acts with that token', async () => {
    const user = await root.Users.create({ email: 'frank@example.com', name: 'Frank', username: 'frank', password: 'frank-password-1' });
    expect(user.username).toBe('frank');
    const found = await root.Users.all({ username: 'frank' });
    expect(found.map((u) => u.id)).toEqual([user.id]);

    const token = await root.Users.createPersonalAccessToken(user.id as number, 'client', ['api']);
    expect(typeof token.token).toBe('string');
    const frank = new Gitlab({ host: gw.baseUrl, token: token.token as string, rateLimits: {} });
    expect((await frank.Users.showCurrentUser()).username).toBe('frank');
    const self = await frank.PersonalAccessTokens.show();
    expect(self.id).toBe(token.id);
    await frank.PersonalAccessTokens.remove();
    await expect(frank.Users.showCurrentUser()).rejects.toMatchObject({ cause: { response: { status: 401 } } });
  });

  it('creates a group, a project in it, reads, edits and deletes the project', async () => {
    const group = await root.Groups.create('Platform', 'platform');
    expect(group.full_path).toBe('platform');
    const project = await root.Projects.create({ name: 'Alert Router', namespaceId: group.id as number, description: 'routes alerts' });
    expect(project.path_with_namespace).toBe('platform/alert-router');
    const byPath = await root.Projects.show('platform/alert-router');
    expect(byPath.id).toBe(project.id);
    expect((byPath.namespace as { full_path: string }).full_path).toBe('platform');
    const edited = await root.Projects.edit(project.id as number, { description: 'routes every alert' });
    expect(edited.description).toBe('routes every alert');

    const member = await root.Users.create({ email: 'grace@example.com', name: 'Grace', username: 'grace', password: 'grace-password-1' });
    const added = await root.ProjectMembers.add(project.id as number, 30, { userId: member.id as number });
    expect(added.access_level).toBe(30);
    const members = await root.ProjectMembers.all(project.id as number);
    expect(members.map((m) => m.username)).toContain('grace');

    await root.Projects.remove(project.id as number);
    await expect(root.Projects.show(project.id as number)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
  });
});
