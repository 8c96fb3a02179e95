import { Module } from '@nestjs/common';
import { Paginator } from '@app/api';
import { IdentityModule } from '@app/identity';
import { SnippetPresenter } from './snippet.presenter';
import { SnippetsController } from './snippets.controller';
import { SnippetsRepository } from './core/snippets.repository';
import { SnippetsService } from './snippets.service';
import { CreateSnippetUseCase, DeleteSnippetUseCase, UpdateSnippetUseCase } from './use-cases/write-snippet.use-cases';

/** Project snippets. Needs the global ConfigModule, DatabaseModule and MessagingModule. `SnippetsService` is exported for snippet notes. */
@Module({
  imports: [IdentityModule],
  controllers: [SnippetsController],
  providers: [Paginator, SnippetsRepository, SnippetsService, SnippetPresenter, CreateSnippetUseCase, UpdateSnippetUseCase, DeleteSnippetUseCase],
  exports: [SnippetsService, SnippetsRepository],
})
export class SnippetsModule {}
