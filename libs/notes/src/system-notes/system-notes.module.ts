import { Module } from '@nestjs/common';
import { SystemNotesWriter } from './system-notes.writer';

/** The system notes writer (projector app). Needs the global DatabaseModule and MessagingModule. */
@Module({
  providers: [SystemNotesWriter],
  exports: [SystemNotesWriter],
})
export class SystemNotesModule {}
