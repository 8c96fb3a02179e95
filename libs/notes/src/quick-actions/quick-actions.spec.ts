import {
  awardEmojiOf,
  extractQuickActions,
  parseIterationReference,
  parseLabelReferences,
  parseMilestoneReference,
  parseUserReferences,
  parseWeight,
} from './quick-actions';

describe(extractQuickActions.name, () => {
  it('takes command lines out of the body and keeps the text', () => {
    expect(extractQuickActions('Looks done.\n/close\n/assign @alice\nThanks', 'Issue')).toEqual({
      body: 'Looks done.\nThanks',
      actions: [
        { name: 'close', argument: '' },
        { name: 'assign', argument: '@alice' },
      ],
    });
  });

  it('leaves commands in code blocks, commands of other noteable types and unknown commands as text', () => {
    const body = '```\n/close\n```\n/merge\n/shrug\n/weight 3';
    expect(extractQuickActions(body, 'Issue')).toEqual({ body: '```\n/close\n```\n/merge\n/shrug', actions: [{ name: 'weight', argument: '3' }] });
    expect(extractQuickActions('/weight 3', 'MergeRequest').actions).toEqual([]);
  });

  it('leaves commands the caller may not run in the body', () => {
    expect(extractQuickActions('/close\n/label ~bug', 'Issue', (name) => name !== 'label')).toEqual({
      body: '/label ~bug',
      actions: [{ name: 'close', argument: '' }],
    });
  });

  it('gives an empty body for a body of commands only, and reads aliases', () => {
    expect(extractQuickActions('/labels ~a\r\n/remove_milestone\n', 'Issue')).toEqual({
      body: '',
      actions: [
        { name: 'label', argument: '~a' },
        { name: 'remove_milestone', argument: '' },
      ],
    });
  });
});

describe('quick action arguments', () => {
  it('reads user references', () => {
    expect(parseUserReferences('@alice, @bob @alice me not/valid')).toEqual(['alice', 'bob', { me: true }]);
  });

  it('reads milestone, label and iteration references', () => {
    expect(parseMilestoneReference('%v1')).toBe('v1');
    expect(parseMilestoneReference('%"Release 1"')).toBe('Release 1');
    expect(parseMilestoneReference('')).toBeNull();
    expect(parseLabelReferences('~bug ~"needs review" ~bug plain')).toEqual(['bug', 'needs review', 'plain']);
    expect(parseIterationReference('*iteration:"Sprint 1"')).toEqual({ title: 'Sprint 1' });
    expect(parseIterationReference('*iteration:12')).toEqual({ id: 12 });
    expect(parseIterationReference('')).toBeNull();
    // Beyond the integer range no iteration can have the id (and the query must not be sent).
    expect(parseIterationReference('*iteration:2147483647')).toEqual({ id: 2147483647 });
    expect(parseIterationReference('*iteration:2147483648')).toBeNull();
    expect(parseIterationReference('*iteration:99999999999999999999999')).toBeNull();
  });

  it('reads weights', () => {
    expect(parseWeight('3')).toBe(3);
    expect(parseWeight('-1')).toBeNull();
    expect(parseWeight('x')).toBeNull();
  });
});

describe(awardEmojiOf.name, () => {
  it.each([
    [':thumbsup:', 'thumbsup'],
    [' :+1: ', '+1'],
    [':tada:\n', 'tada'],
  ])('reads %j as an award', (body, name) => {
    expect(awardEmojiOf(body)).toBe(name);
  });

  it.each([':not_an_emoji_at_all:', ':thumbsup: nice', 'thumbsup', '::'])('does not read %j as an award', (body) => {
    expect(awardEmojiOf(body)).toBeNull();
  });
});
