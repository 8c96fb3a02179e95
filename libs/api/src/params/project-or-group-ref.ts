import { Injectable, PipeTransform } from '@nestjs/common';
import { DomainError } from '../errors/domain-error';
import { isDbInt } from './int-param';

/** A project or group addressed by a path parameter `:id`: numeric id or full path. */
export type ProjectOrGroupRef = { kind: 'id'; id: number } | { kind: 'path'; path: string };

const NUMERIC_ID = /^\d+$/;
/** One namespace or project path segment (GitLab's path rules, leniently). */
const PATH_SEGMENT = /^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/;
const MAX_FULL_PATH_LENGTH = 4096;

/**
 * Reads the value of an `:id` path parameter. The router has already decoded it once
 * (`group%2Fsub%2Fproj` arrives as `group/sub/proj`); it is not decoded again, so a
 * double-encoded path does not match. Returns null for what can address nothing: empty,
 * zero or out-of-range numbers, `.`/`..` segments, empty segments, characters outside
 * GitLab's path alphabet.
 */
export function parseProjectOrGroupRef(id: string): ProjectOrGroupRef | null {
  const value = id.trim();
  if (value.length === 0 || value.length > MAX_FULL_PATH_LENGTH) return null;
  if (NUMERIC_ID.test(value)) {
    const numeric = Number(value);
    return isDbInt(numeric) && numeric > 0 ? { kind: 'id', id: numeric } : null;
  }
  const segments = value.split('/');
  const valid = segments.every((segment) => segment !== '.' && segment !== '..' && PATH_SEGMENT.test(segment));
  return valid ? { kind: 'path', path: value } : null;
}

/** A project is addressed by id or by `namespace/project` (a path without `/` names no project). */
export function parseProjectRef(id: string): ProjectOrGroupRef | null {
  const ref = parseProjectOrGroupRef(id);
  return ref && ref.kind === 'path' && !ref.path.includes('/') ? null : ref;
}

/** A group is addressed by id or by its full path (`parent/child`, or a top-level `group`). */
export const parseGroupRef = parseProjectOrGroupRef;

/** `@Param('id', ProjectRefPipe)`: the reference, or 404 `{"message":"404 Project Not Found"}`. */
@Injectable()
export class ProjectRefPipe implements PipeTransform<string, ProjectOrGroupRef> {
  transform(value: string): ProjectOrGroupRef {
    const ref = typeof value === 'string' ? parseProjectRef(value) : null;
    if (!ref) throw DomainError.notFound('Project');
    return ref;
  }
}

/** `@Param('id', GroupRefPipe)`: the reference, or 404 `{"message":"404 Group Not Found"}`. */
@Injectable()
export class GroupRefPipe implements PipeTransform<string, ProjectOrGroupRef> {
  transform(value: string): ProjectOrGroupRef {
    const ref = typeof value === 'string' ? parseGroupRef(value) : null;
    if (!ref) throw DomainError.notFound('Group');
    return ref;
  }
}
