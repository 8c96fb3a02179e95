import { Module } from '@nestjs/common';
import { ACCESS_RESOLVER } from '@app/api';
import { CustomAttributeFiltersModule } from '@app/custom-attributes';
import { IdentityModule } from '@app/identity';
import { SettingsModule } from '@app/settings';
import { AccessService } from './resolver/access.service';
import { GroupsController } from './groups.controller';
import { MembersController } from './members.controller';
import { ProjectViewsService } from './presenters/project-views.service';
import { ProjectListService } from './project-list.service';
import { ProjectsController } from './projects.controller';
import { TopicsController } from './topics.controller';
import { UserProjectsController } from './user-projects.controller';
import { GroupsRepository } from './repositories/groups.repository';
import { MembersRepository } from './repositories/members.repository';
import { ProjectStarsRepository } from './repositories/project-stars.repository';
import { ProjectStatisticsRepository } from './repositories/project-statistics.repository';
import { ProjectsRepository } from './repositories/projects.repository';
import { TopicsRepository } from './repositories/topics.repository';
import { AddMemberUseCase } from './use-cases/add-member.use-case';
import { ArchiveProjectUseCase } from './use-cases/archive-project.use-case';
import { CreateGroupUseCase } from './use-cases/create-group.use-case';
import { CreateProjectUseCase } from './use-cases/create-project.use-case';
import { DeleteGroupUseCase } from './use-cases/delete-group.use-case';
import { DeleteProjectUseCase } from './use-cases/delete-project.use-case';
import { RemoveMemberUseCase } from './use-cases/remove-member.use-case';
import { StarProjectUseCase } from './use-cases/star-project.use-case';
import { UpdateGroupUseCase } from './use-cases/update-group.use-case';
import { UpdateMemberUseCase } from './use-cases/update-member.use-case';
import { UpdateProjectUseCase } from './use-cases/update-project.use-case';
import { CreateResourceAccessTokenUseCase } from './users/create-resource-access-token.use-case';
import { CreateUserUseCase } from './users/create-user.use-case';
import { DeleteUserUseCase } from './users/delete-user.use-case';
import { ResourceAccessTokensController } from './users/resource-access-tokens.controller';
import { RootUserBootstrap } from './users/root.bootstrap';
import { RootUserRepository } from './users/root-user.repository';
import { UserAccountsController } from './users/user-accounts.controller';

const USE_CASES = [
  CreateGroupUseCase,
  UpdateGroupUseCase,
  DeleteGroupUseCase,
  CreateProjectUseCase,
  UpdateProjectUseCase,
  DeleteProjectUseCase,
  AddMemberUseCase,
  UpdateMemberUseCase,
  RemoveMemberUseCase,
  StarProjectUseCase,
  ArchiveProjectUseCase,
  CreateUserUseCase,
  DeleteUserUseCase,
  CreateResourceAccessTokenUseCase,
];

/**
 * Groups, projects and memberships, and the access resolver behind the API's AuthGuard
 * (`ACCESS_RESOLVER`); above identity, the user lifecycle that touches namespaces (POST and DELETE
 * /users with the personal namespace, project and group access tokens with their bot members, the
 * root bootstrap). Needs the global ConfigModule, DatabaseModule and MessagingModule.
 */
@Module({
  imports: [IdentityModule, SettingsModule, CustomAttributeFiltersModule],
  controllers: [
    GroupsController,
    ProjectsController,
    MembersController,
    UserProjectsController,
    TopicsController,
    UserAccountsController,
    ResourceAccessTokensController,
  ],
  providers: [
    ...USE_CASES,
    AccessService,
    { provide: ACCESS_RESOLVER, useExisting: AccessService },
    GroupsRepository,
    ProjectsRepository,
    MembersRepository,
    ProjectStarsRepository,
    ProjectStatisticsRepository,
    TopicsRepository,
    ProjectViewsService,
    ProjectListService,
    RootUserRepository,
    RootUserBootstrap,
  ],
  exports: [
    AccessService,
    ACCESS_RESOLVER,
    GroupsRepository,
    ProjectsRepository,
    MembersRepository,
    ProjectStatisticsRepository,
    ProjectViewsService,
    CreateProjectUseCase,
    CreateGroupUseCase,
    CreateUserUseCase,
    RootUserBootstrap,
  ],
})
export class NamespacesModule {}
