// libs/notes is built as one-way slices (docs/ci.md "Code layout"): a folder imports only the
// folders below it, and nothing in a folder imports the files directly in src/ (this index, the
// module, the controllers and the notes and discussions endpoints, which compose them):
//
//   use-cases/                                 note and award emoji writes
//   quick-actions/                             the quick actions of note bodies
//   noteables/  presenters/                    finding the noteable and its access; the note views
//   repositories/  events/                     the SQL of the lib; domain events
//   core/ system-notes/ dto/ entities/         noteables, actors and note rules; system notes; the core
//
// Check: `node scripts/folder-cycles.mjs notes`.
//
// Other libs, the apps and the tests use these names only.
export { AwardEmojiEntity, NoteEntity, NOTES_ENTITIES } from './entities';
export { NotesModule } from './notes.module';
export { NotesRepository } from './repositories/notes.repository';
export { SystemNotesModule } from './system-notes/system-notes.module';
export { SystemNotesWriter } from './system-notes/system-notes.writer';
