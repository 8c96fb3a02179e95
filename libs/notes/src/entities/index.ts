import { AwardEmojiEntity } from './award-emoji.entity';
import { NoteEntity } from './note.entity';

export { AwardEmojiEntity, NoteEntity };
export { NOTEABLE_TYPES } from './note.entity';
export type { NoteableType } from './note.entity';

/** The entities of the notes library, listed in the data source's `ENTITIES`. */
export const NOTES_ENTITIES = [NoteEntity, AwardEmojiEntity];
