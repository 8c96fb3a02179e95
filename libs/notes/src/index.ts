export * from './entities';
export * from './note.presenter';
export * from './noteable';
export * from './notes.events';
export * from './notes.module';
export * from './notes.repository';
export * from './system-notes/system-notes.module';
export * from './system-notes/system-notes.writer';
