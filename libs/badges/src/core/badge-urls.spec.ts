import { BADGE_URL_MAX, BadgeRenderContext, badgeUrlProblem, renderBadgeUrl } from './badge-urls';

const context: BadgeRenderContext = {
  projectPath: 'acme/tools/cli',
  projectTitle: 'Command Line',
  projectName: 'cli',
  projectId: 42,
  projectNamespace: 'acme/tools/cli',
  groupName: 'acme/tools',
  gitlabServer: 'git.example.com',
  gitlabPagesDomain: '',
  defaultBranch: 'main',
  commitSha: 'a'.repeat(40),
  latestTag: 'v1.2.0',
};

describe(renderBadgeUrl.name, () => {
  it('replaces every placeholder, keeping slashes of paths', () => {
    expect(renderBadgeUrl('https://ci.example.com/%{project_path}/badges/%{default_branch}/pipeline.svg?sha=%{commit_sha}', context)).toBe(
      `https://ci.example.com/acme/tools/cli/badges/main/pipeline.svg?sha=${'a'.repeat(40)}`,
    );
    expect(
      renderBadgeUrl(
        'https://%{gitlab_server}/x?id=%{project_id}&n=%{project_name}&t=%{project_title}&g=%{group_name}&ns=%{project_namespace}&tag=%{latest_tag}&p=%{gitlab_pages_domain}',
        context,
      ),
    ).toBe('https://git.example.com/x?id=42&n=cli&t=Command Line&g=acme/tools&ns=acme/tools/cli&tag=v1.2.0&p=');
  });

  it('replaces repeated placeholders and leaves unknown ones alone', () => {
    expect(renderBadgeUrl('https://x/%{project_id}/%{project_id}/%{unknown}/%{project_id', context)).toBe('https://x/42/42/%{unknown}/%{project_id');
  });

  it('renders an empty value for a missing commit', () => {
    expect(renderBadgeUrl('https://x/%{commit_sha}', { ...context, commitSha: '' })).toBe('https://x/');
  });

  it('returns the URL unchanged without a project', () => {
    expect(renderBadgeUrl('https://x/%{project_path}', null)).toBe('https://x/%{project_path}');
  });
});

describe(badgeUrlProblem.name, () => {
  it.each([
    'https://example.com/badge.svg',
    'http://127.0.0.1:8080/a?b=c',
    'https://%{gitlab_server}/%{project_path}/-/commits/%{default_branch}',
    'https://shields.io/badge/%{project_name}-x',
  ])('accepts %s', (url) => {
    expect(badgeUrlProblem(url)).toBeNull();
  });

  it.each([
    ['ftp://example.com/a.svg', 'is blocked: Only allowed schemes are http, https'],
    ['javascript:alert(1)', 'is blocked: Only allowed schemes are http, https'],
    ['not a url', 'must be a valid URL'],
    ['/relative/badge.svg', 'must be a valid URL'],
    ['https://exa mple.com', 'must be a valid URL'],
    ['', "can't be blank"],
    [`https://example.com/${'a'.repeat(BADGE_URL_MAX)}`, `is too long (maximum is ${BADGE_URL_MAX} characters)`],
  ])('refuses %j', (url, problem) => {
    expect(badgeUrlProblem(url)).toBe(problem);
  });
});
