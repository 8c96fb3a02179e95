import { GitCommit } from '../git/git-repository';
import { branchSearchMatcher, presentCommit } from './branches.service';

describe(branchSearchMatcher.name, () => {
  const names = ['feature/a', 'feature/b', 'fix-a', 'main', 'release'];
  const search = (term?: string) => names.filter(branchSearchMatcher(term));

  it('matches a prefix with ^, a suffix with $, otherwise a substring, ignoring case', () => {
    expect(search('^feature')).toEqual(['feature/a', 'feature/b']);
    expect(search('a$')).toEqual(['feature/a', 'fix-a']);
    expect(search('EA')).toEqual(['feature/a', 'feature/b', 'release']);
    expect(search('^main$')).toEqual(['main']);
    expect(search()).toEqual(names);
    expect(search('zzz')).toEqual([]);
  });
});

describe(presentCommit.name, () => {
  it('renders GitLab commit fields with trailers and extended trailers', () => {
    const commit: GitCommit = {
      id: 'a'.repeat(40),
      parentIds: ['b'.repeat(40)],
      authorName: 'Ada',
      authorEmail: 'ada@example.com',
      authoredDate: '2024-01-02T03:04:05.000+00:00',
      committerName: 'Bob',
      committerEmail: 'bob@example.com',
      committedDate: '2024-01-03T03:04:05.000+00:00',
      message: 'Title\n\nCo-authored-by: X\nCo-authored-by: Y\n',
      title: 'Title',
      trailers: [
        ['Co-authored-by', 'X'],
        ['Co-authored-by', 'Y'],
      ],
    };
    expect(presentCommit(commit, 'http://h/g/p')).toEqual({
      id: commit.id,
      short_id: 'aaaaaaaa',
      created_at: commit.committedDate,
      parent_ids: commit.parentIds,
      title: 'Title',
      message: commit.message,
      author_name: 'Ada',
      author_email: 'ada@example.com',
      authored_date: commit.authoredDate,
      committer_name: 'Bob',
      committer_email: 'bob@example.com',
      committed_date: commit.committedDate,
      trailers: { 'Co-authored-by': 'Y' },
      extended_trailers: { 'Co-authored-by': ['X', 'Y'] },
      web_url: `http://h/g/p/-/commit/${commit.id}`,
    });
  });
});
