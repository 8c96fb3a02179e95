import { ApplicationSettings } from './core/application-settings';
import { defaultVisibilityWithin, domainMatches, emailDomainRestriction } from './signup-restrictions';

const context = { host: 'git.example.com', sessionExpireDelayMinutes: 10080 };

describe(domainMatches.name, () => {
  it('matches the whole domain, case-insensitively, with * as a wildcard', () => {
    expect(domainMatches(['example.com'], 'a@Example.COM')).toBe(true);
    expect(domainMatches(['example.com'], 'a@sub.example.com')).toBe(false);
    expect(domainMatches(['*.example.com'], 'a@sub.example.com')).toBe(true);
    expect(domainMatches(['*.example.com'], 'a@example.com')).toBe(false);
    expect(domainMatches(['ex*.org'], 'a@example.org')).toBe(true);
    expect(domainMatches(['example.com'], 'a@exampleXcom')).toBe(false);
  });
});

describe(emailDomainRestriction.name, () => {
  it('allows everything by default', () => {
    expect(emailDomainRestriction(ApplicationSettings.defaults(context), 'a@anything.test')).toBeNull();
  });

  it('applies the allowlist when it has entries', () => {
    const sut = ApplicationSettings.defaults(context, { domain_allowlist: ['good.test'] });
    expect(emailDomainRestriction(sut, 'a@good.test')).toBeNull();
    expect(emailDomainRestriction(sut, 'a@bad.test')).toBe('domain is not authorized for sign-up.');
  });

  it('applies the denylist only while it is enabled', () => {
    const off = ApplicationSettings.defaults(context, { domain_denylist: ['bad.test'] });
    expect(emailDomainRestriction(off, 'a@bad.test')).toBeNull();
    const on = ApplicationSettings.defaults(context, { domain_denylist: ['bad.test'], domain_denylist_enabled: true });
    expect(emailDomainRestriction(on, 'a@bad.test')).toMatch(/not allowed for sign-up/);
  });
});

describe(defaultVisibilityWithin.name, () => {
  it('lowers the default to the parent', () => {
    expect(defaultVisibilityWithin('public', null)).toBe('public');
    expect(defaultVisibilityWithin('public', 'internal')).toBe('internal');
    expect(defaultVisibilityWithin('private', 'public')).toBe('private');
  });
});
