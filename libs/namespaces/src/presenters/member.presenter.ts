import type { UserEntity } from '@app/identity';
import { presentUserSummary } from '@app/identity';
import type { MemberEntity } from '../entities/member.entity';

/** A member record: the user summary, the membership, `created_by` and `membership_state`. */
export function presentMember(member: MemberEntity, user: UserEntity, createdBy: UserEntity | null, externalUrl: string): Record<string, unknown> {
  return {
    ...presentUserSummary(user, externalUrl),
    access_level: member.accessLevel,
    created_at: member.createdAt.toISOString(),
    created_by: createdBy ? presentUserSummary(createdBy, externalUrl) : null,
    expires_at: member.expiresAt,
    group_saml_identity: null,
    membership_state: 'active',
  };
}
