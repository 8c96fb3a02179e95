import { Type } from '@sinclair/typebox';
import { AnyObject, Data, defineEvents, Id } from './event-part';

const ApprovalData = Data({
  merge_request: AnyObject,
  action: Type.String({
    description:
      'the merge request hook action: `approved` (no approvals left) or `approval` for an approval, `unapproved` (no longer approved) or `unapproval` for a withdrawal',
  }),
  approvals_left: Type.Integer({ minimum: 0 }),
  approver_id: Id,
});

/** Events of `libs/approvals`: merge request approvals given and withdrawn (`target` is the merge request). */
export const APPROVALS_EVENT_PART = defineEvents({
  'merge_request.approved': { description: 'A user approved a merge request.', data: ApprovalData },
  'merge_request.unapproved': { description: 'A user withdrew their approval of a merge request.', data: ApprovalData },
});
