import { CallHandler, ExecutionContext, Injectable, NestInterceptor, RequestMethod, SetMetadata, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModuleRef, ModulesContainer, Reflector } from '@nestjs/core';
import { from, mergeMap, type Observable } from 'rxjs';
import { DataSource, type EntityTarget, type FindOptionsWhere, type ObjectLiteral } from 'typeorm';
import type { AuthenticatedRequest } from '../auth/auth.decorators';
import { assertNotModifiedAfter, readIfUnmodifiedSince } from './if-unmodified-since';

/** What a resolver reads: the request as the guards left it (path parameters, resolved project or group, principal). */
export interface LastModifiedRequest extends AuthenticatedRequest {
  params: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
}

/** Providers of the application (repositories, a DataSource), looked up across modules. */
export type ProviderLookup = <T>(token: Type<T> | string | symbol) => T;

/**
 * When the resource a DELETE removes last changed; null or undefined when it does not exist
 * (the handler then answers its own 404). Runs after the guards, so the caller may see it.
 */
export type LastModifiedResolver = (
  request: LastModifiedRequest,
  get: ProviderLookup,
) => Promise<Date | string | null | undefined> | Date | string | null | undefined;

/** How a DELETE route honours `If-Unmodified-Since`. Every DELETE declares one (checked at boot). */
export type LastModifiedDeclaration =
  | { kind: 'resolver'; resolver: LastModifiedResolver }
  /** The use case compares inside its transaction, after locking the row. */
  | { kind: 'use-case' }
  /** The route removes no single dated resource (sign-out, bulk clean-up): the header does not apply. */
  | { kind: 'not-applicable'; reason: string };

export const LAST_MODIFIED_METADATA = 'api:last-modified';

/**
 * `@LastModified((request, get) => ...)` on a DELETE handler: with `If-Unmodified-Since`
 * older than the resource's last change, the request is refused with 412
 * `{"message":"412 Precondition Failed"}` before the handler runs.
 */
export const LastModified = Object.assign(
  (resolver: LastModifiedResolver): MethodDecorator => SetMetadata(LAST_MODIFIED_METADATA, { kind: 'resolver', resolver } satisfies LastModifiedDeclaration),
  {
    /** The use case checks `If-Unmodified-Since` itself (under a row lock). */
    checkedByUseCase: (): MethodDecorator => SetMetadata(LAST_MODIFIED_METADATA, { kind: 'use-case' } satisfies LastModifiedDeclaration),
    /** No single dated resource is removed; `reason` says why. */
    notApplicable: (reason: string): MethodDecorator =>
      SetMetadata(LAST_MODIFIED_METADATA, { kind: 'not-applicable', reason } satisfies LastModifiedDeclaration),
  },
);

/** The `If-Unmodified-Since` check of every DELETE (global interceptor, after the guards). */
@Injectable()
export class IfUnmodifiedSinceInterceptor implements NestInterceptor {
  private readonly lookup: ProviderLookup;

  constructor(
    private readonly reflector: Reflector,
    moduleRef: ModuleRef,
  ) {
    this.lookup = <T>(token: Type<T> | string | symbol): T => moduleRef.get<T>(token as Type<T>, { strict: false });
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<LastModifiedRequest & { method: string }>();
    if (request.method !== 'DELETE') return next.handle();
    const since = readIfUnmodifiedSince(request);
    if (since === undefined) return next.handle();
    const declaration = this.reflector.get<LastModifiedDeclaration | undefined>(LAST_MODIFIED_METADATA, context.getHandler());
    if (declaration?.kind !== 'resolver') return next.handle();
    return from(Promise.resolve(declaration.resolver(request, this.lookup))).pipe(
      mergeMap((lastModified) => {
        if (lastModified !== null && lastModified !== undefined) assertNotModifiedAfter(new Date(lastModified), since);
        return next.handle();
      }),
    );
  }
}

/** A DELETE route of the application and how it declares its last-change time. */
export interface DeleteRoute {
  route: string;
  declaration: LastModifiedDeclaration | undefined;
}

/** Every DELETE handler of the application's controllers, with its `@LastModified` declaration (undefined: none). */
export function listDeleteRoutes(modules: ModulesContainer): DeleteRoute[] {
  const routes: DeleteRoute[] = [];
  const seen = new Set<Function>();
  for (const module of modules.values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Function | undefined;
      if (!controller || seen.has(controller)) continue;
      seen.add(controller);
      const prefix = (Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined) ?? '';
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = name === 'constructor' ? undefined : Object.getOwnPropertyDescriptor(prototype, name)?.value;
        if (typeof handler !== 'function') continue;
        if (Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.DELETE) continue;
        const path = (Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined) ?? '';
        routes.push({
          route: `DELETE /${[prefix, path]
            .flat()
            .filter((part) => part !== '' && part !== '/')
            .join('/')}`,
          declaration: Reflect.getMetadata(LAST_MODIFIED_METADATA, handler) as LastModifiedDeclaration | undefined,
        });
      }
    }
  }
  return routes;
}

/** Refuses to boot an application with a DELETE route that does not say how it honours `If-Unmodified-Since`. */
export function assertDeleteRoutesDeclareLastModified(modules: ModulesContainer): void {
  const missing = listDeleteRoutes(modules)
    .filter((route) => route.declaration === undefined)
    .map((route) => route.route);
  if (missing.length > 0) {
    throw new Error(`DELETE routes without @LastModified (If-Unmodified-Since would be ignored): ${missing.join(', ')}`);
  }
}

/**
 * The last-change time of one row, for resolvers:
 * `@LastModified((request, get) => rowChangedAt(get, BadgeEntity, { id: ... }))`.
 * `column` defaults to `updatedAt`; rows that are never updated give `createdAt`.
 */
export async function rowChangedAt<T extends ObjectLiteral>(
  get: ProviderLookup,
  entity: EntityTarget<T>,
  where: FindOptionsWhere<T>,
  column: 'updatedAt' | 'createdAt' = 'updatedAt',
): Promise<Date | null> {
  const row = await get(DataSource)
    .getRepository(entity)
    .findOne({ where, select: { [column]: true } as never });
  return (row as Record<string, Date> | null)?.[column] ?? null;
}
