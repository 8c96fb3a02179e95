import { DomainError } from '../errors/domain-error';

interface RequestWithHeaders {
  headers: Record<string, string | string[] | undefined>;
}

/** The `If-Unmodified-Since` date of a request, or undefined when absent or unparseable (then ignored, RFC 9110 §13.1.4). */
export function readIfUnmodifiedSince(request: RequestWithHeaders): Date | undefined {
  const header = request.headers['if-unmodified-since'];
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time);
}

/**
 * Throws PRECONDITION_FAILED (412 `{"message":"412 Precondition Failed"}`) when the request
 * carries `If-Unmodified-Since` and the resource changed after that date. HTTP dates have a
 * one-second precision, so the resource's time is truncated to the second before comparing.
 */
export function assertUnmodifiedSince(request: RequestWithHeaders, lastModified: Date): void {
  assertNotModifiedAfter(lastModified, readIfUnmodifiedSince(request));
}

/** The same check for use cases, which compare inside their transaction after locking the row. */
export function assertNotModifiedAfter(lastModified: Date, since: Date | undefined): void {
  if (since === undefined) return;
  const changedAt = Math.floor(lastModified.getTime() / 1000);
  const sinceSeconds = Math.floor(since.getTime() / 1000);
  if (changedAt > sinceSeconds) throw DomainError.preconditionFailed();
}
