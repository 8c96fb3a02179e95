import { buildDomainEvent } from '@app/messaging';
import { assigneesNoteBody, commitMentions, commitsNoteBody, planSystemNotes } from './system-note-plan';

const issueUpdated = (changes: Record<string, unknown>) =>
  buildDomainEvent({ type: 'issue.updated', actor: 1, projectId: 5, target: { type: 'issue', id: 9, iid: 1, title: 't' }, data: { changes } });

describe(planSystemNotes.name, () => {
  it('writes notes for assignees, title, description and confidentiality, none for state, milestone, weight, iteration or labels', () => {
    const notes = planSystemNotes(
      issueUpdated({
        assignee_ids: { previous: [1, 2], current: [2, 3] },
        title: { previous: 'Old', current: 'New' },
        description: { previous: 'a', current: 'b' },
        confidential: { previous: false, current: true },
        milestone: { previous: null, current: { id: 1 } },
        weight: { previous: null, current: 3 },
        labels: { previous: [], current: ['bug'] },
      }),
    );
    expect(notes).toEqual([
      { action: 'assignee', noteableType: 'Issue', noteableId: 9, body: '', assignees: { added: [3], removed: [1] } },
      { action: 'title', noteableType: 'Issue', noteableId: 9, body: 'changed title from **Old** to **New**' },
      { action: 'description', noteableType: 'Issue', noteableId: 9, body: 'changed the description' },
      { action: 'confidential', noteableType: 'Issue', noteableId: 9, body: 'made the issue confidential' },
    ]);
    expect(planSystemNotes(issueUpdated({ weight: { previous: 1, current: 2 } }))).toEqual([]);
    expect(planSystemNotes(buildDomainEvent({ type: 'issue.closed', target: { type: 'issue', id: 9 } }))).toEqual([]);
  });

  it('writes a commit note for a push to a branch, newest commit first', () => {
    const push = buildDomainEvent({
      type: 'push',
      projectId: 5,
      data: {
        ref: 'refs/heads/fix',
        total_commits_count: 2,
        commits: [
          { id: 'a'.repeat(40), title: 'first <b>' },
          { id: 'b'.repeat(40), message: 'second\nbody' },
        ],
      },
    });
    expect(planSystemNotes(push)).toEqual([
      {
        action: 'commit',
        noteableType: 'MergeRequest',
        noteableId: 0,
        sourceBranch: 'fix',
        body: 'added 2 commits\n\n<ul><li>bbbbbbbb - second</li><li>aaaaaaaa - first &lt;b&gt;</li></ul>',
      },
    ]);
    expect(planSystemNotes(buildDomainEvent({ type: 'push', data: { ref: 'refs/tags/v1', total_commits_count: 1, commits: [] } }))).toEqual([]);
  });

  it('words assignee and commit notes as GitLab', () => {
    expect(assigneesNoteBody(['a'], [])).toBe('assigned to @a');
    expect(assigneesNoteBody(['a', 'b', 'c'], ['d'])).toBe('assigned to @a, @b and @c and unassigned @d');
    expect(commitsNoteBody([{ id: 'c'.repeat(40), title: 'x' }], 1)).toBe('added 1 commit\n\n<ul><li>cccccccc - x</li></ul>');
  });
});

describe(commitMentions.name, () => {
  it('finds the issues (#n) and merge requests (!n) a commit message mentions, once per commit, not inside words or paths', () => {
    const sha = 'a'.repeat(40);
    const notes = commitMentions([
      { id: sha, message: 'Fix #12 and #12, see !3\n\nnot a#4, not group/p#5, not #x', author: { email: 'a@example.com' } },
      { message: '#9 without id' },
    ]);
    expect(notes.map((n) => [n.noteableType, n.mention?.iid, n.body, n.mention?.authorEmail])).toEqual([
      ['Issue', 12, `mentioned in commit ${sha}`, 'a@example.com'],
      ['MergeRequest', 3, `mentioned in commit ${sha}`, 'a@example.com'],
    ]);
  });
});
