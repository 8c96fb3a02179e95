import { DomainError } from '@app/api';
import { badgeUrlProblem } from '../core/badge-urls';

/** Who owns a badge being written: a project (and its group, for the event) or a group. */
export type BadgeOwner = { kind: 'project'; projectId: number; groupId: number | null } | { kind: 'group'; groupId: number };

export const ownerIds = (owner: BadgeOwner): { projectId: number | null; groupId: number | null } =>
  owner.kind === 'project' ? { projectId: owner.projectId, groupId: owner.groupId } : { projectId: null, groupId: owner.groupId };

/** 400 in the validation shape when a given URL is not an absolute http(s) URL. */
export function checkBadgeUrls(urls: { link_url?: string; image_url?: string }): void {
  const problems: Record<string, string[]> = {};
  for (const key of ['link_url', 'image_url'] as const) {
    const value = urls[key];
    if (value === undefined) continue;
    const problem = badgeUrlProblem(value);
    if (problem) problems[key] = [problem];
  }
  if (Object.keys(problems).length > 0) throw DomainError.invalid(problems);
}
