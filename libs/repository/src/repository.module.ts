import { Global, Module } from '@nestjs/common';
import { IdentityModule } from '@app/identity';
import { IssuesModule, MERGE_REQUEST_GIT } from '@app/issues';
import { NamespacesModule, PROJECT_REPOSITORY_LIFECYCLE } from '@app/namespaces';
import { ProtectedBranchesModule } from './protected-branches';
import { SettingsModule } from '@app/settings';
import { BranchesController } from './branches/branches.controller';
import { BranchesService } from './branches/branches.service';
import { CreateBranchUseCase } from './branches/use-cases/create-branch.use-case';
import { DeleteBranchUseCase, DeleteMergedBranchesUseCase } from './branches/use-cases/delete-branch.use-case';
import { GitAccessService } from './git-http/git-access';
import { GitBodyParsers } from './git-http/git-body-parsers';
import { GitHttpController } from './git-http/git-http.controller';
import { PushPolicy } from './git-http/push-policy';
import { ReceiveHooks } from './git-http/receive-hooks';
import { LanguagesController } from './languages/languages.controller';
import { LanguagesService } from './languages/languages.service';
import { MergeController } from './merge/merge.controller';
import { MergeRequestGitService } from './merge/merge-request-git.service';
import { MergeMergeRequestUseCase } from './merge/merge-merge-request.use-case';
import { ProjectRepositories } from './project-repositories';
import { RecordPushUseCase } from './push/record-push.use-case';
import { PushesRepository } from './push/pushes.repository';
import { ProjectLanguagesRepository } from './languages/project-languages.repository';
import { RepositoryStorage } from './storage/repository-storage';

/**
 * Project repositories: bare git repositories on disk (created and removed with their
 * projects through `PROJECT_REPOSITORY_LIFECYCLE`, hence global), git smart HTTP with branch
 * protection enforced on push, push events, the branches API and language statistics, and the
 * git side of merge requests (`MERGE_REQUEST_GIT`: branch checks, `sha`, merge status).
 * Needs the global ConfigModule, DatabaseModule and MessagingModule.
 */
@Global()
@Module({
  imports: [NamespacesModule, IdentityModule, SettingsModule, ProtectedBranchesModule, IssuesModule],
  controllers: [GitHttpController, BranchesController, LanguagesController, MergeController],
  providers: [
    RepositoryStorage,
    PushesRepository,
    RecordPushUseCase,
    ProjectLanguagesRepository,
    LanguagesService,
    ProjectRepositories,
    { provide: PROJECT_REPOSITORY_LIFECYCLE, useExisting: ProjectRepositories },
    GitAccessService,
    GitBodyParsers,
    ReceiveHooks,
    PushPolicy,
    BranchesService,
    CreateBranchUseCase,
    DeleteBranchUseCase,
    DeleteMergedBranchesUseCase,
    MergeMergeRequestUseCase,
    MergeRequestGitService,
    { provide: MERGE_REQUEST_GIT, useExisting: MergeRequestGitService },
  ],
  exports: [PROJECT_REPOSITORY_LIFECYCLE, MERGE_REQUEST_GIT, RepositoryStorage, RecordPushUseCase, LanguagesService, BranchesService, MergeMergeRequestUseCase],
})
export class RepositoryModule {}
