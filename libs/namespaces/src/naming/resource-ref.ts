import { isDbInt, parseProjectOrGroupRef } from '@app/api';

/** A `:id` path parameter: a numeric id or a full path. */
export type ResourceRef = { id: number } | { fullPath: string };

/**
 * Parses a `:id` value with the API's rules (already decoded once by the router; never
 * decoded again, so a double-encoded path names nothing); null when it cannot name anything.
 */
export function parseResourceRef(raw: string | number): ResourceRef | null {
  const ref = parseProjectOrGroupRef(String(raw));
  if (!ref) return null;
  if (ref.kind === 'id') return isDbInt(ref.id) ? { id: ref.id } : null;
  return { fullPath: ref.path };
}

/** Splits `group/sub/project` into the namespace path and the project path. */
export function splitProjectPath(fullPath: string): { namespacePath: string; path: string } | null {
  const at = fullPath.lastIndexOf('/');
  if (at <= 0 || at === fullPath.length - 1) return null;
  return { namespacePath: fullPath.slice(0, at), path: fullPath.slice(at + 1) };
}
