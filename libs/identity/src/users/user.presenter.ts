import { createHash } from 'node:crypto';
import { UserEntity } from '../entities/user.entity';
import { isAccessLocked } from '../lockout/account-lockout';

export type UserView = 'basic' | 'public' | 'self' | 'admin';

export const avatarUrl = (email: string): string =>
  `https://www.gravatar.com/avatar/${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}?s=80&d=identicon`;

/** User summary embedded in many records: id, name, username, state, avatar_url, web_url. */
export function presentUserSummary(user: UserEntity, externalUrl: string): Record<string, unknown> {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    // GitLab's `access_locked?`: locked after too many wrong passwords, until the unlock period ends.
    locked: isAccessLocked(user.lockedAt),
    avatar_url: avatarUrl(user.email),
    web_url: `${externalUrl}/${user.username}`,
  };
}

/**
 * GitLab's user entities: `basic` (anonymous callers), `public` (signed-in callers),
 * `self` (the user itself: adds e-mail and settings), `admin` (adds admin-only fields).
 */
export function presentUser(user: UserEntity, view: UserView, externalUrl: string): Record<string, unknown> {
  const summary = presentUserSummary(user, externalUrl);
  if (view === 'basic') return summary;
  const hidden = user.privateProfile && view === 'public';
  const publicView: Record<string, unknown> = {
    ...summary,
    created_at: user.createdAt.toISOString(),
    bio: hidden ? '' : user.bio,
    location: hidden ? '' : user.location,
    public_email: hidden ? '' : user.publicEmail,
    skype: user.skype,
    linkedin: user.linkedin,
    twitter: user.twitter,
    discord: '',
    website_url: user.websiteUrl,
    organization: user.organization,
    job_title: user.jobTitle,
    pronouns: null,
    bot: user.userType !== 'human',
    work_information: null,
    followers: 0,
    following: 0,
    local_time: null,
  };
  if (view === 'public') return publicView;
  const selfView: Record<string, unknown> = {
    ...publicView,
    last_sign_in_at: null,
    confirmed_at: user.confirmedAt?.toISOString() ?? null,
    last_activity_on: user.lastActivityOn,
    email: user.email,
    theme_id: 1,
    color_scheme_id: 1,
    projects_limit: user.projectsLimit,
    current_sign_in_at: null,
    identities: [],
    can_create_group: user.canCreateGroup,
    can_create_project: user.projectsLimit > 0,
    two_factor_enabled: false,
    external: user.external,
    private_profile: user.privateProfile,
    commit_email: user.email,
  };
  if (view === 'self') return selfView;
  return { ...selfView, is_admin: user.isAdmin, note: null, is_auditor: false, using_license_seat: false };
}
