import { AccessTokenEntity } from '../entities/access-token.entity';

const today = (): string => new Date().toISOString().slice(0, 10);

export const isTokenActive = (token: AccessTokenEntity): boolean => !token.revoked && !(token.expiresAt && token.expiresAt <= today());

/** GitLab's token record; `token` (the secret) only in the create response. */
export function presentAccessToken(token: AccessTokenEntity, secret?: string): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: token.id,
    name: token.name,
    description: token.description,
    revoked: token.revoked,
    created_at: token.createdAt.toISOString(),
    scopes: token.scopes,
    user_id: token.userId,
    last_used_at: token.lastUsedAt?.toISOString() ?? null,
    active: isTokenActive(token),
    expires_at: token.expiresAt,
  };
  if (token.impersonation) view.impersonation = true;
  if (token.resourceType !== 'personal') view.access_level = token.accessLevel;
  if (secret !== undefined) view.token = secret;
  return view;
}
