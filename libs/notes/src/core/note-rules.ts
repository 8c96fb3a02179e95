import { DomainError } from '@app/api';
import { ACCESS_LEVELS } from '@app/namespaces';
import type { NoteEntity } from '../entities/note.entity';
import type { NoteActor } from './noteable';

/** GitLab's limit of a note body, in characters. */
export const NOTE_BODY_MAX = 1_000_000;

/** Characters as GitLab counts them (code points, not UTF-16 units). */
const characterCount = (text: string): number => (text.length <= NOTE_BODY_MAX ? text.length : [...text].length);

/** 400 in the validation shape (`{message: {note: [...]}}`, GitLab's attribute) for a body that is too long. */
export function checkNoteBody(body: string): void {
  if (characterCount(body) > NOTE_BODY_MAX) throw DomainError.invalid({ note: [`is too long (maximum is ${NOTE_BODY_MAX} characters)`] });
}

/** Internal (confidential) notes are read by Reporter+ and by their author (and administrators). */
export function canReadNote(note: Pick<NoteEntity, 'internal' | 'authorId'>, viewer: { id: number; isAdmin: boolean } | null, accessLevel: number): boolean {
  if (!note.internal) return true;
  if (!viewer) return false;
  return viewer.isAdmin || accessLevel >= ACCESS_LEVELS.REPORTER || note.authorId === viewer.id;
}

/** Whether the viewer sees every internal note of the noteable (the list then needs no per-row check). */
export const readsAllInternalNotes = (viewer: { isAdmin: boolean } | null, accessLevel: number): boolean =>
  Boolean(viewer?.isAdmin) || accessLevel >= ACCESS_LEVELS.REPORTER;

/** Only Reporter+ (and administrators) write internal notes. */
export const mayWriteInternal = (actor: NoteActor): boolean => actor.isAdmin || actor.accessLevel >= ACCESS_LEVELS.REPORTER;

/** `created_at` of a new note: administrators and owners of the project (or group) only; others' values are ignored, as GitLab. */
export const maySetCreatedAt = (actor: NoteActor): boolean => actor.isAdmin || actor.accessLevel >= ACCESS_LEVELS.OWNER;

/** System notes cannot be edited; user notes by their author or an administrator. */
export const mayEditNote = (note: Pick<NoteEntity, 'system' | 'authorId'>, actor: NoteActor): boolean =>
  !note.system && (note.authorId === actor.id || actor.isAdmin);

/** System notes cannot be removed; user notes by their author, Maintainers and above, administrators. */
export const mayDeleteNote = (note: Pick<NoteEntity, 'system' | 'authorId'>, actor: NoteActor): boolean =>
  !note.system && (note.authorId === actor.id || actor.isAdmin || actor.accessLevel >= ACCESS_LEVELS.MAINTAINER);

/** A `created_at` parameter: an ISO 8601 time after 1970-01-01, else 400. */
export function parseCreatedAt(value: string): Date {
  const ISO = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
  const date = ISO.test(value.trim()) ? new Date(value.trim()) : new Date(NaN);
  if (Number.isNaN(date.getTime()) || date.getTime() <= 0) throw DomainError.invalid({ created_at: ['is invalid'] });
  return date;
}
