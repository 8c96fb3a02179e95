import {
  accessLevelName,
  canManageMemberLevel,
  canSee,
  effectiveAccessLevel,
  isMembershipActive,
  mostVisible,
  projectCreationMinLevel,
  subgroupCreationMinLevel,
  visibilityWithin,
} from './access-policy';

const user = { id: 7, isAdmin: false, external: false };
const external = { id: 8, isAdmin: false, external: true };
const admin = { id: 1, isAdmin: true, external: false };

describe('access policy', () => {
  describe(effectiveAccessLevel.name, () => {
    it('is 0 for anonymous callers whatever the memberships', () => {
      expect(effectiveAccessLevel(null, { memberLevels: [50], ownsNamespace: true })).toBe(0);
    });

    it('is 60 for administrators, with or without memberships', () => {
      expect(effectiveAccessLevel(admin, { memberLevels: [] })).toBe(60);
      expect(effectiveAccessLevel(admin, { memberLevels: [10] })).toBe(60);
    });

    it('takes the highest of the direct and inherited memberships', () => {
      expect(effectiveAccessLevel(user, { memberLevels: [20, 40, 30] })).toBe(40);
      expect(effectiveAccessLevel(user, { memberLevels: [] })).toBe(0);
    });

    it('gives Owner to the owner of a personal namespace', () => {
      expect(effectiveAccessLevel(user, { memberLevels: [10], ownsNamespace: true })).toBe(50);
    });
  });

  describe(canSee.name, () => {
    it('shows public resources to everyone, anonymous and external included', () => {
      expect(canSee('public', null, 0)).toBe(true);
      expect(canSee('public', external, 0)).toBe(true);
    });

    it('shows internal resources to signed-in users who are not external', () => {
      expect(canSee('internal', null, 0)).toBe(false);
      expect(canSee('internal', user, 0)).toBe(true);
      expect(canSee('internal', external, 0)).toBe(false);
      expect(canSee('internal', external, 10)).toBe(true);
    });

    it('shows private resources to members of any level and administrators only', () => {
      expect(canSee('private', user, 0)).toBe(false);
      expect(canSee('private', user, 10)).toBe(true);
      expect(canSee('private', admin, 0)).toBe(true);
      expect(canSee('private', null, 0)).toBe(false);
    });

    it('shows a private group to members of something inside it', () => {
      expect(canSee('private', user, 0, { hasDescendantAccess: true })).toBe(true);
      expect(canSee('private', null, 0, { hasDescendantAccess: true })).toBe(false);
    });
  });

  describe(isMembershipActive.name, () => {
    it('counts a membership until the day before it expires', () => {
      expect(isMembershipActive(null, '2030-01-10')).toBe(true);
      expect(isMembershipActive('2030-01-11', '2030-01-10')).toBe(true);
      expect(isMembershipActive('2030-01-10', '2030-01-10')).toBe(false);
      expect(isMembershipActive('2030-01-09', '2030-01-10')).toBe(false);
    });
  });

  describe('visibility ordering', () => {
    it('keeps a child at most as visible as its parent', () => {
      expect(visibilityWithin('private', 'internal')).toBe(true);
      expect(visibilityWithin('internal', 'internal')).toBe(true);
      expect(visibilityWithin('public', 'internal')).toBe(false);
    });

    it('finds the most visible of several, private for none', () => {
      expect(mostVisible([])).toBe('private');
      expect(mostVisible(['private', 'public', 'internal'])).toBe('public');
    });
  });

  describe(canManageMemberLevel.name, () => {
    it('lets maintainers manage levels below Owner', () => {
      expect(canManageMemberLevel(40, null, 30)).toBe(true);
      expect(canManageMemberLevel(40, 30, 40)).toBe(true);
    });

    it('needs Owner to grant, change or remove the Owner role', () => {
      expect(canManageMemberLevel(40, null, 50)).toBe(false);
      expect(canManageMemberLevel(40, 50, 40)).toBe(false);
      expect(canManageMemberLevel(40, 50, null)).toBe(false);
      expect(canManageMemberLevel(50, 50, 40)).toBe(true);
      expect(canManageMemberLevel(60, null, 50)).toBe(true);
    });
  });

  it('maps the creation-level settings to minimum levels (GitLab defaults: developers create projects, maintainers subgroups)', () => {
    expect(projectCreationMinLevel(undefined)).toBe(30);
    expect(projectCreationMinLevel('maintainer')).toBe(40);
    expect(projectCreationMinLevel('owner')).toBe(50);
    expect(projectCreationMinLevel('noone')).toBe(Number.POSITIVE_INFINITY);
    expect(subgroupCreationMinLevel(undefined)).toBe(40);
    expect(subgroupCreationMinLevel('owner')).toBe(50);
  });

  it('names access levels as GitLab does', () => {
    expect(accessLevelName(40)).toBe('Maintainer');
    expect(accessLevelName(5)).toBe('Minimal Access');
    expect(accessLevelName(33)).toBe('33');
  });
});
