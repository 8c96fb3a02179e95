import { buildDomainEvent } from '@app/messaging';
import { noteableRemovalOf } from './noteable-removal';

describe(noteableRemovalOf.name, () => {
  it('names the noteable whose notes go with it', () => {
    expect(noteableRemovalOf(buildDomainEvent({ type: 'issue.destroyed', actor: 1, projectId: 2, target: { type: 'issue', id: 5 } }))).toEqual({
      noteableType: 'Issue',
      noteableId: 5,
    });
    expect(noteableRemovalOf(buildDomainEvent({ type: 'snippet.destroyed', actor: 1, projectId: 2, target: { type: 'snippet', id: 6 } }))).toEqual({
      noteableType: 'Snippet',
      noteableId: 6,
    });
    expect(noteableRemovalOf(buildDomainEvent({ type: 'epic.destroyed', actor: 1, groupId: 2, target: { type: 'epic', id: 7 } }))).toEqual({
      noteableType: 'Epic',
      noteableId: 7,
    });
  });

  it('ignores other events and removals without an integer id', () => {
    expect(noteableRemovalOf(buildDomainEvent({ type: 'issue.closed', actor: 1, projectId: 2, target: { type: 'issue', id: 5 } }))).toBeNull();
    expect(noteableRemovalOf(buildDomainEvent({ type: 'issue.destroyed', actor: 1, projectId: 2, target: { type: 'issue', id: 'x' as never } }))).toBeNull();
  });
});
