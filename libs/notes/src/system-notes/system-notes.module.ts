import { Module } from '@nestjs/common';
import { SystemNotesRepository } from './system-notes.repository';
import { SystemNotesWriter } from './system-notes.writer';

/** The system notes writer (projector app). Needs the global DatabaseModule and MessagingModule. */
@Module({
  providers: [SystemNotesRepository, SystemNotesWriter],
  exports: [SystemNotesWriter],
})
export class SystemNotesModule {}
