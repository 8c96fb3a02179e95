export * from './entities';
export * from './note.presenter';
export * from './noteable';
export * from './notes.events';
export * from './notes.module';
export * from './notes.repository';
