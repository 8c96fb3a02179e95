/** What the access resolver knows about a project or group a route addresses. */
export interface ResourceAccess<TResource = unknown> {
  resource: TResource;
  /** Effective access level of the principal (0 when none; 60 for administrators). */
  accessLevel: number;
  /** Whether the principal may see the resource at all (visibility or membership). */
  visible: boolean;
  /** An archived project is read-only: the guard refuses non-read methods unless the route allows them. */
  archived?: boolean;
}

export const ACCESS_RESOLVER = Symbol('ACCESS_RESOLVER');

/** Resolves `:id` path parameters (numeric id or URL-encoded full path); implemented by the namespaces library. */
export interface AccessResolver {
  project(ref: string, user: { id: number; isAdmin: boolean; external: boolean } | null): Promise<ResourceAccess | null>;
  group(ref: string, user: { id: number; isAdmin: boolean; external: boolean } | null): Promise<ResourceAccess | null>;
  /**
   * Whether a project route (its declared path, e.g. `/api/v4/projects/:id/merge_requests`) is
   * open to the caller on the resolved project, by the project feature the route belongs to
   * (merge requests, repository, pipelines) and that feature's access level; true for routes
   * of no such feature.
   */
  projectRouteReadable(access: ResourceAccess, routePath: string): boolean;
}
