import { ApplicationSettings } from './core/application-settings';

/** GitLab's wildcard match of an e-mail domain: `*` matches any run of characters, case-insensitive. */
export function domainMatches(patterns: readonly string[], email: string): boolean {
  const at = email.lastIndexOf('@');
  if (at < 0) return false;
  const domain = email.slice(at + 1).toLowerCase();
  return patterns.some((pattern) => {
    const regexp = pattern
      .toLowerCase()
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*?');
    return new RegExp(`^${regexp}$`).test(domain);
  });
}

/**
 * Why `email` may not be used for a new account under `domain_allowlist` and
 * `domain_denylist` (when enabled), or null when it may. Texts are GitLab's.
 */
export function emailDomainRestriction(settings: ApplicationSettings, email: string): string | null {
  const allowlist = settings.strings('domain_allowlist');
  if (allowlist.length > 0 && !domainMatches(allowlist, email)) return 'domain is not authorized for sign-up.';
  if (settings.boolean('domain_denylist_enabled') && domainMatches(settings.strings('domain_denylist'), email)) {
    return 'is not allowed for sign-up. Please use your regular email address.';
  }
  return null;
}

/** The visibility to give a new resource that was created without one: the default, lowered to what its parent allows. */
export function defaultVisibilityWithin<V extends 'private' | 'internal' | 'public'>(defaultVisibility: V, parent: V | null): V {
  const rank = { private: 0, internal: 1, public: 2 } as const;
  if (parent === null) return defaultVisibility;
  return rank[defaultVisibility] <= rank[parent] ? defaultVisibility : parent;
}
