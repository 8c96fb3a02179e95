import { type MergeRequestEntity, mergeRequestAttributes } from '@app/issues';
import type { DomainEventType, NewDomainEvent } from '@app/messaging';

/** Event types of libs/approvals (catalogue part `approvals`). Never rename: they are on the stream. */
export const APPROVALS_EVENTS = {
  APPROVED: 'merge_request.approved',
  UNAPPROVED: 'merge_request.unapproved',
} as const satisfies Record<string, DomainEventType>;

export type ApprovalsEventType = (typeof APPROVALS_EVENTS)[keyof typeof APPROVALS_EVENTS];

/**
 * An approval given or withdrawn. `action` is GitLab's merge request hook action: `approved` when
 * the approval leaves no approval missing, else `approval`; `unapproved` when the withdrawal makes
 * an approved merge request unapproved, else `unapproval`.
 */
export function approvalEvent(
  type: ApprovalsEventType,
  actorId: number,
  mr: MergeRequestEntity,
  groupId: number | null,
  data: { action: 'approved' | 'approval' | 'unapproved' | 'unapproval'; approvalsLeft: number },
): NewDomainEvent<ApprovalsEventType> {
  return {
    type,
    actor: actorId,
    projectId: mr.projectId,
    groupId,
    target: { type: 'merge_request', id: mr.id, iid: mr.iid, title: mr.title },
    data: {
      merge_request: mergeRequestAttributes(mr),
      action: data.action,
      approvals_left: data.approvalsLeft,
      approver_id: actorId,
    },
  };
}
