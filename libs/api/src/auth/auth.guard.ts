import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppConfig } from '@app/config';
import { DomainError } from '../errors';
import { ACCESS_RESOLVER, AccessResolver, ResourceAccess } from './access';
import { AUTH_POLICY, AuthenticatedRequest, AuthPolicy } from './auth.decorators';
import { extractCredentials, extractSudo, hasAnyCredential } from './credentials';
import { AUTHENTICATOR, Authenticator, Principal } from './principal';
import { tierAtLeast } from './tier';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

interface HttpRequest extends AuthenticatedRequest {
  method: string;
  headers: Record<string, string | string[] | undefined>;
  query?: unknown;
  params?: Record<string, string>;
  /** Fastify: the matched route, with its declared path (`/api/v4/projects/:id/...`). */
  routeOptions?: { url?: string };
  cookies?: Record<string, string | undefined>;
}

/**
 * The one authentication and authorization step of every API route: credentials →
 * principal, sudo, scopes, admin, tier, and project/group access declared with `@Auth`.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
    @Inject(AUTHENTICATOR) private readonly authenticator: Authenticator,
    @Inject(ACCESS_RESOLVER) private readonly access: AccessResolver,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const policy = this.reflector.getAllAndMerge<AuthPolicy>(AUTH_POLICY, [context.getHandler(), context.getClass()]) ?? {};
    // A route that authenticates by itself (a job token, a runner token) may still need a tier.
    if (policy.skip) {
      this.checkTier(policy);
      return true;
    }
    const request = context.switchToHttp().getRequest<HttpRequest>();

    const principal = await this.authenticate(request, policy);
    request.principal = principal;

    if (!principal && !policy.optional) throw DomainError.unauthorized();
    if (principal) this.checkScopes(principal, policy, request.method);
    if (policy.admin && !principal?.user.isAdmin) throw DomainError.forbidden();
    this.checkTier(policy);

    if (policy.project) request.projectAccess = await this.resolve('project', request, policy.project, principal);
    if (policy.group) request.groupAccess = await this.resolve('group', request, policy.group, principal);
    return true;
  }

  /** The project or group of a path parameter: 404 when the caller may not see it, 403 (401 anonymous) below the level. */
  private async resolve(
    kind: 'project' | 'group',
    request: HttpRequest,
    rule: { param: string; minAccessLevel: number; allowArchived?: boolean },
    principal: Principal | null,
  ): Promise<ResourceAccess> {
    const user = principal ? { id: principal.user.id, isAdmin: principal.user.isAdmin, external: principal.user.external } : null;
    const found = await this.access[kind](request.params?.[rule.param] ?? '', user);
    if (!found || !found.visible) throw DomainError.notFound(kind === 'project' ? 'Project' : 'Group');
    if (found.accessLevel < rule.minAccessLevel) throw principal ? DomainError.forbidden() : DomainError.unauthorized();
    // The project feature of the route (merge requests, repository, pipelines): 403 as GitLab's
    // `authorize!` when its access level or the project's visibility keeps it from the caller.
    if (kind === 'project' && !this.access.projectRouteReadable(found, request.routeOptions?.url ?? '')) throw DomainError.forbidden();
    // An archived project is read-only: every write to it or its resources is refused.
    if (found.archived && !rule.allowArchived && !READ_METHODS.has(request.method)) throw DomainError.forbidden('Project is archived');
    return found;
  }

  private async authenticate(request: HttpRequest, policy: AuthPolicy): Promise<Principal | null> {
    const credentials = extractCredentials(request);
    if (!policy.jobToken) delete credentials.jobToken;
    if (!hasAnyCredential(credentials)) {
      if (extractSudo(request) !== undefined) throw DomainError.unauthorized();
      return null;
    }
    const principal = await this.authenticator.authenticate(credentials, {
      jobTokenAllowed: Boolean(policy.jobToken),
      safeMethod: READ_METHODS.has(request.method),
    });
    if (!principal) throw DomainError.unauthorized();
    const sudo = policy.noSudo ? undefined : extractSudo(request);
    return sudo === undefined ? principal : this.sudo(principal, sudo);
  }

  /** Sudo, checked in GitLab's order: administrator, then token kind and scope, then the user. */
  private async sudo(principal: Principal, identifier: string): Promise<Principal> {
    if (!principal.user.isAdmin) throw DomainError.forbidden('Must be admin to use sudo');
    if (!['personal', 'impersonation', 'oauth'].includes(principal.credential)) {
      throw DomainError.forbidden('Must be authenticated using an OAuth or Personal Access Token to use sudo');
    }
    if (!principal.scopes.includes('sudo')) throw DomainError.insufficientScope('sudo');
    const target = await this.authenticator.findSudoUser(identifier);
    if (!target) throw DomainError.notFound(`User with ID or username ${identifier}`);
    return { ...principal, user: target, sudoFrom: principal.user };
  }

  private checkTier(policy: AuthPolicy): void {
    if (policy.tier && !tierAtLeast(this.config.tier, policy.tier)) {
      throw DomainError.forbidden(`This feature requires the ${policy.tier.toUpperCase()} tier`);
    }
  }

  private checkScopes(principal: Principal, policy: AuthPolicy, method: string): void {
    const required = policy.scopes ?? (READ_METHODS.has(method) ? ['api', 'read_api'] : ['api']);
    if (required.length === 0 || principal.credential === 'session' || principal.credential === 'job') return;
    if (!required.some((scope) => principal.scopes.includes(scope))) throw DomainError.insufficientScope(required[0]);
  }
}
