import { ACCESS_LEVELS, featureAccessLevel, ProjectEntity, Visibility } from '@app/namespaces';

/** Who reads or writes project snippets. */
export interface SnippetViewer {
  id: number;
  isAdmin: boolean;
  external: boolean;
}

/** The snippets feature is open to the caller (who sees the project): `private` means members only. */
export function snippetsFeatureOpen(
  project: Pick<ProjectEntity, 'settings' | 'issuesEnabled' | 'mergeRequestsEnabled'>,
  viewer: SnippetViewer | null,
  accessLevel: number,
): boolean {
  const level = featureAccessLevel(project, 'snippets');
  if (level === 'disabled') return false;
  if (level === 'private') return Boolean(viewer?.isAdmin) || accessLevel >= ACCESS_LEVELS.GUEST;
  return true;
}

/**
 * A snippet of a project the caller sees, by its own visibility: public to everyone, internal
 * to signed-in users who are not external, private to project members, its author and
 * administrators.
 */
export function snippetReadable(snippet: { visibility: Visibility; authorId: number }, viewer: SnippetViewer | null, accessLevel: number): boolean {
  if (viewer?.isAdmin || snippet.visibility === 'public') return true;
  if (!viewer) return false;
  if (snippet.visibility === 'internal') return !viewer.external || accessLevel >= ACCESS_LEVELS.GUEST;
  return accessLevel >= ACCESS_LEVELS.GUEST || snippet.authorId === viewer.id;
}

/** Reporters and above create project snippets (GitLab's `create_snippet`). */
export const mayCreateSnippet = (viewer: SnippetViewer, accessLevel: number): boolean => viewer.isAdmin || accessLevel >= ACCESS_LEVELS.REPORTER;

/** The author, Maintainers and above, administrators change or remove a snippet. */
export const mayChangeSnippet = (snippet: { authorId: number }, viewer: SnippetViewer, accessLevel: number): boolean =>
  viewer.isAdmin || snippet.authorId === viewer.id || accessLevel >= ACCESS_LEVELS.MAINTAINER;
