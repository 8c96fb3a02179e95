import { hookEventOf } from '@app/hooks';
import { buildDomainEvent } from '@app/messaging';
import { NoteEntity } from '../entities/note.entity';
import type { Noteable } from '../core/noteable';
import { NOTE_EVENTS, noteEvent } from './notes.events';

const noteable: Noteable = { type: 'Issue', id: 11, iid: 3, title: 'Disk full', projectId: 5, groupId: 2, authorId: 1, confidential: false };
const note = Object.assign(new NoteEntity(), {
  id: 42,
  body: 'hello',
  system: false,
  internal: true,
  authorId: 7,
  createdAt: new Date('2024-01-01T00:00:00Z'),
  updatedAt: new Date('2024-01-02T00:00:00Z'),
});

describe(noteEvent.name, () => {
  it('targets the note, titled by its noteable, with the note object of contribution events', () => {
    const event = noteEvent(NOTE_EVENTS.CREATED, 7, note, noteable, { id: 7, username: 'gus' });
    expect(event).toEqual({
      type: 'note.created',
      actor: 7,
      projectId: 5,
      groupId: 2,
      target: { type: 'note', id: 42, iid: null, title: 'Disk full' },
      data: {
        note: {
          id: 42,
          body: 'hello',
          attachment: null,
          author: { id: 7, username: 'gus' },
          created_at: '2024-01-01T00:00:00.000Z',
          updated_at: '2024-01-02T00:00:00.000Z',
          system: false,
          noteable_id: 11,
          noteable_type: 'Issue',
          noteable_iid: 3,
          confidential: true,
          internal: true,
        },
      },
    });
  });

  it('is delivered to no system hook (GitLab has no system hook for comments)', () => {
    for (const type of Object.values(NOTE_EVENTS)) expect(hookEventOf(buildDomainEvent(noteEvent(type, 7, note, noteable, null)))).toBeNull();
  });
});
