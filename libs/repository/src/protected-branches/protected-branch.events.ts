import type { DomainEventType, NewDomainEvent } from '@app/messaging';
import type { ProtectedBranchView } from './protected-branch.presenter';

/** Domain event types of branch protection. Never rename: consumers match on them. */
export const PROTECTED_BRANCH_EVENTS = {
  CREATED: 'protected_branch.created',
  UPDATED: 'protected_branch.updated',
  DESTROYED: 'protected_branch.destroyed',
} as const satisfies Record<string, DomainEventType>;

export type ProtectedBranchEventType = (typeof PROTECTED_BRANCH_EVENTS)[keyof typeof PROTECTED_BRANCH_EVENTS];

/** The event of a rule change; `data` is the rule as the API shows it (full detail). */
export function protectedBranchEvent(
  type: ProtectedBranchEventType,
  actorId: number,
  project: { id: number; groupId: number | null },
  rule: ProtectedBranchView,
): NewDomainEvent<ProtectedBranchEventType> {
  return {
    type,
    actor: actorId,
    projectId: project.id,
    groupId: project.groupId,
    target: { type: 'protected_branch', id: rule.id, title: rule.name },
    data: { protected_branch: { ...rule } },
  };
}
