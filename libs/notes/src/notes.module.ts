import { Module } from '@nestjs/common';
import { Paginator } from '@app/api';
import { IdentityModule } from '@app/identity';
import { IssuesModule } from '@app/issues';
import { NamespacesModule } from '@app/namespaces';
import { SettingsModule } from '@app/settings';
import { SnippetsModule } from '@app/snippets';
import { IssueNotesController } from './issue-notes.controller';
import { SnippetNotesController } from './snippet-notes.controller';
import { EpicNotesController } from './epic-notes.controller';
import { AwardEmojiController } from './award-emoji.controller';
import { DiscussionsController } from './discussions.controller';
import { DiscussionsEndpoints } from './discussions-endpoint.service';
import { EpicDiscussionsController } from './epic-discussions.controller';
import { NotePresenter } from './presenters/note.presenter';
import { NoteablesService } from './noteables/noteables.service';
import { NotesEndpoints } from './notes-endpoint.service';
import { NotesRepository } from './repositories/notes.repository';
import { QuickActionsService } from './quick-actions/quick-actions.service';
import { QuickActionLookupsRepository } from './quick-actions/quick-action-lookups.repository';
import { CreateNoteUseCase } from './use-cases/create-note.use-case';
import { AwardEmojiUseCase } from './use-cases/award-emoji.use-case';
import { RemoveAwardEmojiUseCase } from './use-cases/remove-award-emoji.use-case';
import { DeleteNoteUseCase } from './use-cases/delete-note.use-case';
import { UpdateNoteUseCase } from './use-cases/update-note.use-case';

/**
 * Notes on issues, merge requests, project snippets and epics, with quick actions and award
 * emoji. Needs the global ConfigModule, DatabaseModule, MessagingModule, RedisModule and the
 * (global) RepositoryModule for `/merge`.
 */
@Module({
  imports: [IdentityModule, NamespacesModule, IssuesModule, SettingsModule, SnippetsModule],
  controllers: [IssueNotesController, SnippetNotesController, EpicNotesController, AwardEmojiController, DiscussionsController, EpicDiscussionsController],
  providers: [
    Paginator,
    DiscussionsEndpoints,
    NotesRepository,
    NotePresenter,
    NoteablesService,
    NotesEndpoints,
    QuickActionsService,
    QuickActionLookupsRepository,
    CreateNoteUseCase,
    UpdateNoteUseCase,
    DeleteNoteUseCase,
    AwardEmojiUseCase,
    RemoveAwardEmojiUseCase,
  ],
  exports: [NotesRepository, NotePresenter],
})
export class NotesModule {}
