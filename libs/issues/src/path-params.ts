import { DomainError, ErrorCode } from '@app/api';

/** An integer path parameter (`issue_iid`, `milestone_id`...): 400 `<name> is invalid` otherwise, as GitLab. */
export function intParam(name: string, raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) > 2_147_483_647) throw new DomainError(ErrorCode.BAD_REQUEST, `${name} is invalid`, { errorKey: true });
  return Number(raw);
}
