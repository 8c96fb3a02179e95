import type { NamespaceEntity } from '../entities/namespace.entity';

/** `web_url` of a namespace: `/groups/<full_path>` for groups, `/<username>` for users. */
export const namespaceWebUrl = (namespace: Pick<NamespaceEntity, 'kind' | 'fullPath'>, externalUrl: string): string =>
  namespace.kind === 'group' ? `${externalUrl}/groups/${namespace.fullPath}` : `${externalUrl}/${namespace.fullPath}`;

/** The namespace embedded in project records (GitLab's `NamespaceBasic`). */
export function presentNamespaceBasic(namespace: NamespaceEntity, externalUrl: string): Record<string, unknown> {
  return {
    id: namespace.id,
    name: namespace.kind === 'group' ? namespace.name : namespace.fullName,
    path: namespace.path,
    kind: namespace.kind,
    full_path: namespace.fullPath,
    parent_id: namespace.parentId,
    avatar_url: null,
    web_url: namespaceWebUrl(namespace, externalUrl),
  };
}
