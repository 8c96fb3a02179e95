import { deriveProjectNaming, likePattern, parameterize, validateGroupNaming, validateProjectNaming } from './naming';

describe('naming', () => {
  describe(parameterize.name, () => {
    it('lower-cases and joins words with dashes', () => {
      expect(parameterize('Alert Router')).toBe('alert-router');
      expect(parameterize('  Héllo, Wörld!! v2.0 ')).toBe('hello-world-v2-0');
      expect(parameterize('snake_case-ok')).toBe('snake_case-ok');
    });
  });

  describe(deriveProjectNaming.name, () => {
    it('derives the path from the name and the name from the path', () => {
      expect(deriveProjectNaming({ name: 'Alert Router' })).toEqual({ name: 'Alert Router', path: 'alert-router' });
      expect(deriveProjectNaming({ path: 'alert-router' })).toEqual({ name: 'alert-router', path: 'alert-router' });
      expect(deriveProjectNaming({ name: 'X', path: 'y' })).toEqual({ name: 'X', path: 'y' });
    });
  });

  describe(validateProjectNaming.name, () => {
    it('accepts ordinary names and paths', () => {
      expect(validateProjectNaming({ name: 'Alert Router + 2 🚀', path: 'alert.router_2' })).toEqual({});
    });

    it('refuses bad paths with GitLab texts', () => {
      expect(validateProjectNaming({ path: '-start' }).path).toEqual([expect.stringContaining("Cannot start with '-'")]);
      expect(validateProjectNaming({ path: 'repo.git' }).path).toHaveLength(1);
      expect(validateProjectNaming({ path: 'a b' }).path).toHaveLength(1);
      expect(validateProjectNaming({ path: 'tree' }).path).toEqual(['tree is a reserved name']);
      expect(validateProjectNaming({ path: '' }).path).toEqual(["can't be blank"]);
    });

    it('refuses names that start with punctuation or are too long', () => {
      expect(validateProjectNaming({ name: '.hidden' }).name).toHaveLength(1);
      expect(validateProjectNaming({ name: 'a'.repeat(256) }).name).toEqual(['is too long (maximum is 255 characters)']);
      expect(validateProjectNaming({ name: '   ' }).name).toEqual(["can't be blank"]);
    });
  });

  describe(validateGroupNaming.name, () => {
    it('reserves web routes for top-level groups only', () => {
      expect(validateGroupNaming({ path: 'admin' }, true).path).toEqual(['admin is a reserved name']);
      expect(validateGroupNaming({ path: 'admin' }, false)).toEqual({});
    });

    it('refuses a path ending in a dot and names with brackets other than parentheses', () => {
      expect(validateGroupNaming({ path: 'team.' }, true).path).toHaveLength(1);
      expect(validateGroupNaming({ name: 'Team (EU)' }, true)).toEqual({});
      expect(validateGroupNaming({ name: 'Team [EU]' }, true).name).toHaveLength(1);
    });
  });

  it('escapes LIKE wildcards', () => {
    expect(likePattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
  });
});
