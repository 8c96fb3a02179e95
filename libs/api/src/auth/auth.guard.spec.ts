import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppConfig } from '@app/config';
import { DomainError } from '../errors';
import { ErrorCode } from '../errors/error-code';
import { AccessResolver, ResourceAccess } from './access';
import { AUTH_POLICY, AuthPolicy } from './auth.decorators';
import { AuthGuard } from './auth.guard';
import { Authenticator, Credentials, Principal, PrincipalUser } from './principal';

const user = (over: Partial<PrincipalUser> = {}): PrincipalUser => ({
  id: 2,
  username: 'alice',
  isAdmin: false,
  external: false,
  state: 'active',
  userType: 'human',
  ...over,
});

/** An in-memory authenticator: token value → principal (pure logic under test is the guard). */
class TableAuthenticator implements Authenticator {
  constructor(
    private readonly tokens: Record<string, Principal>,
    private readonly users: PrincipalUser[],
  ) {}
  async authenticate(c: Credentials): Promise<Principal | null> {
    return this.tokens[c.privateToken ?? c.bearer ?? ''] ?? null;
  }
  async findSudoUser(id: string): Promise<PrincipalUser | null> {
    return this.users.find((u) => String(u.id) === id || u.username.toLowerCase() === id.toLowerCase()) ?? null;
  }
}

class TableResolver implements AccessResolver {
  constructor(private readonly projects: Record<string, ResourceAccess>) {}
  async project(ref: string): Promise<ResourceAccess | null> {
    return this.projects[ref] ?? null;
  }
  async group(): Promise<ResourceAccess | null> {
    return null;
  }
  projectRouteReadable(access: ResourceAccess, routePath: string): boolean {
    return !routePath.includes('/merge_requests') || access.accessLevel >= 20;
  }
}

function contextFor(policy: AuthPolicy, request: Record<string, unknown>): ExecutionContext {
  const handler = () => undefined;
  const req = Object.assign(request, { method: 'GET', headers: {}, query: {}, params: {}, ...request });
  Reflect.defineMetadata(AUTH_POLICY, policy, handler);
  return {
    getType: () => 'http',
    getHandler: () => handler,
    getClass: () => class Fixture {},
    switchToHttp: () => ({ getRequest: () => req }),
  } as unknown as ExecutionContext;
}

const codeOf = async (promise: Promise<unknown>): Promise<ErrorCode | 'ok'> => {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return (error as DomainError).code;
  }
};

describe(AuthGuard.name, () => {
  const admin = user({ id: 1, username: 'root', isAdmin: true });
  const alice = user();
  const tokens: Record<string, Principal> = {
    'admin-sudo': { user: admin, credential: 'personal', scopes: ['api', 'sudo'], tokenId: 1 },
    'admin-api': { user: admin, credential: 'personal', scopes: ['api'], tokenId: 2 },
    'alice-api': { user: alice, credential: 'personal', scopes: ['api'], tokenId: 3 },
    'alice-read': { user: alice, credential: 'personal', scopes: ['read_api'], tokenId: 4 },
    'bot-sudo': { user: admin, credential: 'project', scopes: ['api', 'sudo'], tokenId: 5 },
  };
  const projects: Record<string, ResourceAccess> = {
    public: { resource: { id: 10 }, accessLevel: 0, visible: true },
    private: { resource: { id: 11 }, accessLevel: 0, visible: false },
    mine: { resource: { id: 12 }, accessLevel: 30, visible: true },
    archived: { resource: { id: 13 }, accessLevel: 50, visible: true, archived: true },
  };
  const make = (tier: 'free' | 'premium' | 'ultimate' = 'ultimate') =>
    new AuthGuard(
      new Reflector(),
      AppConfig.fromEnvironment({ SERVICE_TIER: tier }),
      new TableAuthenticator(tokens, [admin, alice]),
      new TableResolver(projects),
    );
  const headers = (token: string) => ({ 'private-token': token });

  it('requires credentials unless the route is optional', async () => {
    expect(await codeOf(make().canActivate(contextFor({}, {})))).toBe(ErrorCode.UNAUTHORIZED);
    expect(await codeOf(make().canActivate(contextFor({ optional: true }, {})))).toBe('ok');
    expect(await codeOf(make().canActivate(contextFor({ optional: true }, { headers: headers('nope') })))).toBe(ErrorCode.UNAUTHORIZED);
  });

  it('checks sudo in GitLab order: administrator, token kind, scope, then the user', async () => {
    const sudo = (token: string, who: string) => make().canActivate(contextFor({}, { headers: { ...headers(token), sudo: who } }));
    expect(await codeOf(sudo('alice-api', 'root'))).toBe(ErrorCode.FORBIDDEN);
    expect(await codeOf(sudo('bot-sudo', 'alice'))).toBe(ErrorCode.FORBIDDEN);
    expect(await codeOf(sudo('admin-api', 'alice'))).toBe(ErrorCode.INSUFFICIENT_SCOPE);
    expect(await codeOf(sudo('admin-sudo', 'ghost'))).toBe(ErrorCode.NOT_FOUND);
    const request: Record<string, unknown> = { headers: { ...headers('admin-sudo'), sudo: 'ALICE' } };
    await make().canActivate(contextFor({}, request));
    expect((request.principal as Principal).user.id).toBe(alice.id);
    expect((request.principal as Principal).sudoFrom?.id).toBe(admin.id);
  });

  it('asks for api on writes and accepts read_api on reads', async () => {
    expect(await codeOf(make().canActivate(contextFor({}, { headers: headers('alice-read') })))).toBe('ok');
    expect(await codeOf(make().canActivate(contextFor({}, { method: 'POST', headers: headers('alice-read') })))).toBe(ErrorCode.INSUFFICIENT_SCOPE);
    expect(await codeOf(make().canActivate(contextFor({ scopes: ['read_user'] }, { headers: headers('alice-api') })))).toBe(ErrorCode.INSUFFICIENT_SCOPE);
  });

  it('gates admin routes and tiers', async () => {
    expect(await codeOf(make().canActivate(contextFor({ admin: true }, { headers: headers('alice-api') })))).toBe(ErrorCode.FORBIDDEN);
    expect(await codeOf(make().canActivate(contextFor({ admin: true }, { headers: headers('admin-api') })))).toBe('ok');
    expect(await codeOf(make('free').canActivate(contextFor({ tier: 'premium' }, { headers: headers('admin-api') })))).toBe(ErrorCode.FORBIDDEN);
    expect(await codeOf(make('premium').canActivate(contextFor({ tier: 'premium' }, { headers: headers('admin-api') })))).toBe('ok');
    expect(await codeOf(make('premium').canActivate(contextFor({ tier: 'ultimate' }, { headers: headers('admin-api') })))).toBe(ErrorCode.FORBIDDEN);
  });

  it('gates the tier of routes that authenticate by themselves, reading no credentials', async () => {
    expect(await codeOf(make('free').canActivate(contextFor({ skip: true, tier: 'premium' }, {})))).toBe(ErrorCode.FORBIDDEN);
    expect(await codeOf(make('premium').canActivate(contextFor({ skip: true, tier: 'premium' }, {})))).toBe('ok');
    // An unknown credential does not matter there: the route checks its own.
    expect(await codeOf(make('free').canActivate(contextFor({ skip: true }, { headers: headers('nobody') })))).toBe('ok');
  });

  it('hides invisible projects (404), refuses low access (403, or 401 when anonymous)', async () => {
    const project = (ref: string, token?: string, level = 30) =>
      make().canActivate(
        contextFor({ optional: true, project: { param: 'id', minAccessLevel: level } }, { params: { id: ref }, headers: token ? headers(token) : {} }),
      );
    expect(await codeOf(project('private', 'alice-api'))).toBe(ErrorCode.NOT_FOUND);
    expect(await codeOf(project('missing', 'alice-api'))).toBe(ErrorCode.NOT_FOUND);
    expect(await codeOf(project('public', 'alice-api'))).toBe(ErrorCode.FORBIDDEN);
    expect(await codeOf(project('public'))).toBe(ErrorCode.UNAUTHORIZED);
    expect(await codeOf(project('public', undefined, 0))).toBe('ok');
    expect(await codeOf(project('mine', 'alice-api'))).toBe('ok');
  });

  it("asks the resolver whether the route's project feature is open: 403 when it is not", async () => {
    const route = (url: string) =>
      make().canActivate(
        contextFor(
          { optional: true, project: { param: 'id', minAccessLevel: 0 } },
          { params: { id: 'public' }, routeOptions: { url }, headers: headers('alice-api') },
        ),
      );
    expect(await codeOf(route('/api/v4/projects/:id/merge_requests'))).toBe(ErrorCode.FORBIDDEN);
    expect(await codeOf(route('/api/v4/projects/:id/issues'))).toBe('ok');
  });

  it('makes archived projects read-only: writes are 403 unless the route allows them', async () => {
    const call = (method: string, allowArchived?: boolean) =>
      make().canActivate(
        contextFor({ project: { param: 'id', minAccessLevel: 10, allowArchived } }, { method, params: { id: 'archived' }, headers: headers('alice-api') }),
      );
    expect(await codeOf(call('GET'))).toBe('ok');
    expect(await codeOf(call('HEAD'))).toBe('ok');
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) expect(await codeOf(call(method))).toBe(ErrorCode.FORBIDDEN);
    expect(await codeOf(call('POST', true))).toBe('ok');
    expect(await codeOf(call('DELETE', true))).toBe('ok');
  });
});
