import { Module } from '@nestjs/common';
import { ProtectedBranchesController } from './protected-branches.controller';
import { ProtectedBranchesRepository } from './protected-branches.repository';
import { ProtectedBranchesService } from './protected-branches.service';
import { CreateProtectedBranchUseCase } from './use-cases/create-protected-branch.use-case';
import { DeleteProtectedBranchUseCase } from './use-cases/delete-protected-branch.use-case';
import { GrantMembershipChecker } from './use-cases/grant-items';
import { UpdateProtectedBranchUseCase } from './use-cases/update-protected-branch.use-case';

/**
 * Protected branches: the API (`/projects/:id/protected_branches`) and `ProtectedBranchesService`,
 * which the git and branch endpoints ask what a caller may do on a branch.
 * Needs the global ConfigModule, DatabaseModule and MessagingModule.
 */
@Module({
  controllers: [ProtectedBranchesController],
  providers: [
    ProtectedBranchesRepository,
    ProtectedBranchesService,
    GrantMembershipChecker,
    CreateProtectedBranchUseCase,
    UpdateProtectedBranchUseCase,
    DeleteProtectedBranchUseCase,
  ],
  exports: [ProtectedBranchesService, ProtectedBranchesRepository],
})
export class ProtectedBranchesModule {}
