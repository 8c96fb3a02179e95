import { applyProjectAttributes, featureAccessLevel, normalizeTopics, projectSetting } from './project-attributes';

const blank = () => ({ settings: {} as Record<string, unknown>, issuesEnabled: true, mergeRequestsEnabled: true, mergeMethod: 'merge' as const });

describe('project attributes', () => {
  it('reads GitLab defaults for settings that were never written', () => {
    const project = blank();
    expect(projectSetting(project, 'remove_source_branch_after_merge')).toBe(true);
    expect(projectSetting(project, 'ci_default_git_depth')).toBe(20);
    expect(featureAccessLevel(project, 'wiki')).toBe('enabled');
    expect(featureAccessLevel(project, 'security_and_compliance')).toBe('private');
  });

  it('keeps the legacy feature booleans and the access levels in step', () => {
    const project = blank();
    const changed = applyProjectAttributes(project, { issues_enabled: false, jobs_enabled: false, wiki_access_level: 'private' }, { premium: false });
    expect(project.issuesEnabled).toBe(false);
    expect(featureAccessLevel(project, 'issues')).toBe('disabled');
    expect(featureAccessLevel(project, 'builds')).toBe('disabled');
    expect(featureAccessLevel(project, 'wiki')).toBe('private');
    expect(changed.sort()).toEqual(['builds_access_level', 'issues_access_level', 'wiki_access_level']);

    applyProjectAttributes(project, { issues_access_level: 'private' }, { premium: false });
    expect(project.issuesEnabled).toBe(true);
    expect(featureAccessLevel(project, 'issues')).toBe('private');
  });

  it('stores settings, maps deprecated names, and reports only real changes', () => {
    const project = blank();
    const changed = applyProjectAttributes(
      project,
      { public_builds: false, remove_source_branch_after_merge: true, merge_method: 'ff', squash_option: 'always', unknown_key: 1 },
      { premium: false },
    );
    expect(project.settings).toEqual({ public_jobs: false, squash_option: 'always' });
    expect(project.mergeMethod).toBe('ff');
    expect(changed.sort()).toEqual(['merge_method', 'public_jobs', 'squash_option']);
  });

  it('ignores PREMIUM attributes below PREMIUM', () => {
    const free = blank();
    applyProjectAttributes(free, { approvals_before_merge: 2, mirror: true }, { premium: false });
    expect(free.settings).toEqual({});
    const premium = blank();
    applyProjectAttributes(premium, { approvals_before_merge: 2 }, { premium: true });
    expect(projectSetting(premium, 'approvals_before_merge')).toBe(2);
  });

  it('keeps emails_enabled the opposite of emails_disabled', () => {
    const project = blank();
    applyProjectAttributes(project, { emails_disabled: true }, { premium: false });
    expect(projectSetting(project, 'emails_enabled')).toBe(false);
  });

  it('normalizes topics from topics or the deprecated tag_list', () => {
    expect(normalizeTopics([' ops ', 'Ops', 'alerts', ''], undefined)).toEqual(['ops', 'alerts']);
    expect(normalizeTopics(undefined, ['a'])).toEqual(['a']);
    expect(normalizeTopics(undefined, undefined)).toBeUndefined();
  });
});
