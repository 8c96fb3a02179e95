import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { ServiceTier } from '@app/config';
import type { Principal } from './principal';
import type { ResourceAccess } from './access';

export const AUTH_POLICY = 'api:auth-policy';

export interface AuthPolicy {
  /** Credentials are not read at all (endpoints with their own authentication, e.g. OAuth, alert notify). */
  skip?: boolean;
  /** Anonymous requests are let through (the handler shows public data only). */
  optional?: boolean;
  /** Any of these scopes suffices; default `api` (writes) or `api`/`read_api` (reads). */
  scopes?: string[];
  admin?: boolean;
  /** Minimum tier of the instance. */
  tier?: ServiceTier;
  /**
   * Resource addressed by a path parameter, and the minimum access level on it. Writes
   * (non-read methods) to an archived project are refused with 403 unless `allowArchived`.
   */
  project?: { param: string; minAccessLevel: number; allowArchived?: boolean };
  group?: { param: string; minAccessLevel: number };
  /** Job tokens are accepted (job-scoped endpoints). */
  jobToken?: boolean;
  /** Sudo is not honoured (e.g. token endpoints acting on the caller). */
  noSudo?: boolean;
}

const merge = (policy: AuthPolicy) => SetMetadata(AUTH_POLICY, policy);

/** Declares who may call a route. Every property merges with class-level declarations. */
export const Auth = (policy: AuthPolicy = {}): MethodDecorator & ClassDecorator => merge(policy);

/** Route readable without credentials (public data only). */
export const PublicRead = (scopes?: string[]) => Auth({ optional: true, scopes });

export const AdminOnly = () => Auth({ admin: true });

/** The route authenticates by itself (OAuth token endpoint, alert notify endpoints, health). */
export const SkipAuth = () => Auth({ skip: true });

/**
 * The project in path parameter `param` must be visible and the caller must have at least `level`.
 * `allowArchived`: the route also writes to archived projects (unarchive, delete, settings, stars, members).
 */
export const ProjectAccess = (minAccessLevel: number, options: { param?: string; optional?: boolean; scopes?: string[]; allowArchived?: boolean } = {}) =>
  Auth({ project: { param: options.param ?? 'id', minAccessLevel, allowArchived: options.allowArchived }, optional: options.optional, scopes: options.scopes });

export const GroupAccess = (minAccessLevel: number, options: { param?: string; optional?: boolean; scopes?: string[] } = {}) =>
  Auth({ group: { param: options.param ?? 'id', minAccessLevel }, optional: options.optional, scopes: options.scopes });

export interface AuthenticatedRequest {
  principal?: Principal | null;
  projectAccess?: ResourceAccess;
  groupAccess?: ResourceAccess;
}

/** The principal of the request (null for anonymous requests on optional routes). */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal | null => {
  return ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal ?? null;
});

/** The project resolved by `@ProjectAccess` (resource, access level). */
export const CurrentProject = createParamDecorator((_: unknown, ctx: ExecutionContext): ResourceAccess | undefined => {
  return ctx.switchToHttp().getRequest<AuthenticatedRequest>().projectAccess;
});

export const CurrentGroup = createParamDecorator((_: unknown, ctx: ExecutionContext): ResourceAccess | undefined => {
  return ctx.switchToHttp().getRequest<AuthenticatedRequest>().groupAccess;
});
