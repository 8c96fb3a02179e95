import { Module } from '@nestjs/common';
import { ACCESS_RESOLVER } from '@app/api';
import { SettingsModule } from '@app/settings';
import { AccessService } from './access/access.service';
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
];

/**
 * Groups, projects and memberships, and the access resolver behind the API's AuthGuard
 * (`ACCESS_RESOLVER`). Needs the global ConfigModule, DatabaseModule and MessagingModule.
 */
@Module({
  imports: [SettingsModule],
  controllers: [GroupsController, ProjectsController, MembersController, UserProjectsController, TopicsController],
  providers: [
    ...USE_CASES,
    AccessService,
    { provide: ACCESS_RESOLVER, useExisting: AccessService },
    GroupsRepository,
    ProjectsRepository,
    MembersRepository,
    ProjectStarsRepository,
    ProjectStatisticsRepository,
    ProjectViewsService,
    ProjectListService,
  ],
  exports: [AccessService, ACCESS_RESOLVER, GroupsRepository, ProjectsRepository, MembersRepository, ProjectStatisticsRepository, ProjectViewsService, CreateProjectUseCase, CreateGroupUseCase],
})
export class NamespacesModule {}
