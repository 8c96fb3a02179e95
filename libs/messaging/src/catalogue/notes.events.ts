import { Type } from '@sinclair/typebox';
import { AnyObject, Data, DateTime, defineEvents, Id, NullableId } from './event-part';

const NoteData = Data({
  note: Data({
    id: Id,
    body: Type.String(),
    attachment: Type.Null(),
    author: Type.Union([AnyObject, Type.Null()]),
    created_at: DateTime,
    updated_at: DateTime,
    system: Type.Boolean(),
    noteable_id: Id,
    noteable_type: Type.String(),
    noteable_iid: NullableId,
    confidential: Type.Boolean(),
    internal: Type.Boolean(),
  }),
});

/**
 * Events of `libs/notes`: comments on issues, merge requests, project snippets and epics.
 * `target` is `{type: 'note', id, iid: null, title: <the noteable's title>}`; epic notes have no
 * `project_id`. System notes publish nothing.
 */
export const NOTES_EVENT_PART = defineEvents({
  'note.created': { description: 'A comment was added (`data.note`: the note, with `internal` for internal notes).', data: NoteData },
  'note.updated': { description: 'A comment was edited (`data.note` after the edit).', data: NoteData },
  'note.destroyed': { description: 'A comment was deleted (`data.note` as it was).', data: NoteData },
});
