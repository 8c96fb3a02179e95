import { DomainError } from '@app/api';
import { canReadNote, checkNoteBody, mayDeleteNote, mayEditNote, maySetCreatedAt, NOTE_BODY_MAX, parseCreatedAt } from './note-rules';

const actor = (id: number, accessLevel: number, isAdmin = false) => ({ id, username: `u${id}`, isAdmin, accessLevel });

describe('note rules', () => {
  it('refuses bodies longer than 1,000,000 characters, counting code points', () => {
    expect(() => checkNoteBody('a'.repeat(NOTE_BODY_MAX))).not.toThrow();
    expect(() => checkNoteBody('a'.repeat(NOTE_BODY_MAX + 1))).toThrow(DomainError);
    // 1,000,000 emoji are 2,000,000 UTF-16 units but 1,000,000 characters.
    expect(() => checkNoteBody('😀'.repeat(NOTE_BODY_MAX))).not.toThrow();
  });

  it('shows internal notes to Reporter+, their author and administrators only', () => {
    const note = { internal: true, authorId: 7 };
    expect(canReadNote(note, null, 0)).toBe(false);
    expect(canReadNote(note, { id: 8, isAdmin: false }, 10)).toBe(false);
    expect(canReadNote(note, { id: 8, isAdmin: false }, 20)).toBe(true);
    expect(canReadNote(note, { id: 7, isAdmin: false }, 10)).toBe(true);
    expect(canReadNote(note, { id: 9, isAdmin: true }, 0)).toBe(true);
    expect(canReadNote({ internal: false, authorId: 7 }, null, 0)).toBe(true);
  });

  it('lets authors and administrators edit, and also Maintainers delete, but never system notes', () => {
    const note = { system: false, authorId: 7 };
    expect(mayEditNote(note, actor(7, 10))).toBe(true);
    expect(mayEditNote(note, actor(8, 50))).toBe(false);
    expect(mayEditNote(note, actor(8, 60, true))).toBe(true);
    expect(mayDeleteNote(note, actor(8, 40))).toBe(true);
    expect(mayDeleteNote(note, actor(8, 30))).toBe(false);
    expect(mayEditNote({ system: true, authorId: 7 }, actor(7, 60, true))).toBe(false);
    expect(mayDeleteNote({ system: true, authorId: 7 }, actor(7, 60, true))).toBe(false);
  });

  it('lets only owners and administrators date notes, after 1970-01-01', () => {
    expect(maySetCreatedAt(actor(1, 50))).toBe(true);
    expect(maySetCreatedAt(actor(1, 40))).toBe(false);
    expect(maySetCreatedAt(actor(1, 0, true))).toBe(true);
    expect(parseCreatedAt('2020-01-02T03:04:05Z').toISOString()).toBe('2020-01-02T03:04:05.000Z');
    expect(() => parseCreatedAt('1970-01-01T00:00:00Z')).toThrow(DomainError);
    expect(() => parseCreatedAt('1960-01-01')).toThrow(DomainError);
    expect(() => parseCreatedAt('yesterday')).toThrow(DomainError);
  });
});
