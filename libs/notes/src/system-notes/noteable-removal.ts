import type { DomainEvent } from '@app/messaging';
import type { NoteableType } from '../entities/note.entity';

/** The notes (and award emoji) that go with a removed record. */
export interface NoteableRemoval {
  noteableType: NoteableType;
  noteableId: number;
}

const REMOVED_NOTEABLES: Readonly<Record<string, NoteableType>> = { 'issue.destroyed': 'Issue', 'snippet.destroyed': 'Snippet', 'epic.destroyed': 'Epic' };

/**
 * What a domain event removes that has notes: an issue, a project snippet or an epic (GitLab
 * destroys the notes and award emoji of a noteable with it). Null otherwise. Pure.
 */
export function noteableRemovalOf(event: DomainEvent): NoteableRemoval | null {
  const noteableType = REMOVED_NOTEABLES[event.type];
  const id = event.target?.id;
  if (noteableType && typeof id === 'number' && Number.isSafeInteger(id)) return { noteableType, noteableId: id };
  return null;
}
