import { Type } from '@sinclair/typebox';
import { AnyObject, Data, defineEvents, Id, NullableString } from './event-part';

const PushData = Data(
  {
    object_kind: Type.String(),
    event_name: Type.String(),
    before: Type.String(),
    after: Type.String(),
    ref: Type.String(),
    checkout_sha: NullableString,
    message: NullableString,
    user_id: Id,
    user_name: Type.String(),
    user_username: Type.String(),
    user_email: Type.String(),
    user_avatar: NullableString,
    project_id: Id,
    project: AnyObject,
    commits: Type.Array(AnyObject, { description: 'the last 20 commits, oldest first' }),
    total_commits_count: Type.Integer({ minimum: 0 }),
    repository: AnyObject,
  },
  "GitLab's push / tag push hook payload",
);

const ProtectedBranchData = Data({ protected_branch: AnyObject });

/** Events of `libs/repository`: git pushes and branch protection. */
export const REPOSITORY_EVENT_PART = defineEvents({
  push: { description: 'A branch was pushed (created, updated or deleted).', data: PushData },
  tag_push: { description: 'A tag was pushed (created or deleted).', data: PushData },
  repository_update: {
    description: 'One per accepted push: every ref it moved.',
    data: Data({
      event_name: Type.String(),
      user_id: Id,
      user_name: Type.String(),
      user_email: Type.String(),
      user_avatar: NullableString,
      project_id: Id,
      project: AnyObject,
      changes: Type.Array(Type.Object({ before: Type.String(), after: Type.String(), ref: Type.String() })),
      refs: Type.Array(Type.String()),
    }),
  },
  'protected_branch.created': {
    description: 'A branch protection rule was created (`protected_branch`: the rule as the API shows it).',
    data: ProtectedBranchData,
  },
  'protected_branch.updated': { description: 'A branch protection rule was changed.', data: ProtectedBranchData },
  'protected_branch.destroyed': { description: 'A branch protection rule was deleted.', data: ProtectedBranchData },
});
