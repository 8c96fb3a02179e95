import type { DomainEventData, DomainEventType, NewDomainEvent } from '@app/messaging';
import type { NoteEntity } from '../entities/note.entity';
import type { Noteable } from '../core/noteable';

/** Domain event types of notes. Never rename: they are stored in the stream. */
export const NOTE_EVENTS = {
  CREATED: 'note.created',
  UPDATED: 'note.updated',
  DESTROYED: 'note.destroyed',
} as const satisfies Record<string, DomainEventType>;

export type NoteEventType = (typeof NOTE_EVENTS)[keyof typeof NOTE_EVENTS];

/**
 * The `note` object of a note event: what a contribution event shows (`{id, body, attachment,
 * author, created_at, system, noteable_id, noteable_type, noteable_iid}`) plus `confidential`
 * and `internal`, which the event lists use to hide internal notes from those who may not
 * read them (GitLab's event note entity has both fields).
 */
export function noteSnapshot(note: NoteEntity, noteable: Noteable, author: Record<string, unknown> | null): DomainEventData<NoteEventType>['note'] {
  return {
    id: note.id,
    body: note.body,
    attachment: null,
    author,
    created_at: note.createdAt.toISOString(),
    updated_at: note.updatedAt.toISOString(),
    system: note.system,
    noteable_id: noteable.id,
    noteable_type: noteable.type,
    noteable_iid: noteable.iid,
    confidential: note.internal,
    internal: note.internal,
  };
}

/**
 * The event of a note change. `target` is the note (type `note`, id of the note, the
 * noteable's title: GitLab's `target_title` of a comment); `project_id` is the noteable's
 * project (null for epic notes), `group_id` its group.
 */
export function noteEvent(
  type: NoteEventType,
  actorId: number,
  note: NoteEntity,
  noteable: Noteable,
  author: Record<string, unknown> | null,
): NewDomainEvent<NoteEventType> {
  return {
    type,
    actor: actorId,
    projectId: noteable.projectId,
    groupId: noteable.groupId,
    target: { type: 'note', id: note.id, iid: null, title: noteable.title },
    data: { note: noteSnapshot(note, noteable, author) },
  };
}
