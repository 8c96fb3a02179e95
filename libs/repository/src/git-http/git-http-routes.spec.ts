import { GIT_HTTP_ROUTES, MAX_PROJECT_PATH_SEGMENTS, projectPathOfGitParams } from './git-http-routes';
import { parseHookInput } from './receive-hooks';

describe('git HTTP routes', () => {
  it('serves every project path depth for the three endpoints', () => {
    expect(GIT_HTTP_ROUTES).toHaveLength(3 * (MAX_PROJECT_PATH_SEGMENTS - 1));
    expect(GIT_HTTP_ROUTES).toContain(':s0/:s1/info/refs');
    expect(GIT_HTTP_ROUTES).toContain(':s0/:s1/:s2/git-receive-pack');
  });

  it('joins the segments into the project path, without .git', () => {
    expect(projectPathOfGitParams({ s0: 'group', s1: 'sub', s2: 'app.git' })).toBe('group/sub/app');
    expect(projectPathOfGitParams({ s0: 'me', s1: 'app' })).toBe('me/app');
    expect(projectPathOfGitParams({ s0: 'me', s1: 'app.git.git' })).toBe('me/app.git');
  });

  it('names nothing for dot segments', () => {
    expect(projectPathOfGitParams({ s0: '..', s1: 'app' })).toBe('');
    expect(projectPathOfGitParams({ s0: 'me', s1: '.git' })).toBe('');
  });
});

describe(parseHookInput.name, () => {
  it('reads `<old> <new> <ref>` lines and ignores anything else', () => {
    const a = 'a'.repeat(40);
    const b = 'b'.repeat(40);
    expect(parseHookInput(`${a} ${b} refs/heads/main\n${b} ${a} refs/tags/v1\n\ngarbage\n`)).toEqual([
      { before: a, after: b, ref: 'refs/heads/main' },
      { before: b, after: a, ref: 'refs/tags/v1' },
    ]);
  });
});
