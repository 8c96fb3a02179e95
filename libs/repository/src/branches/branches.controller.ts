import { CurrentPrincipal, CurrentProject, DomainError, LastModified, paginateArray, Principal, ProjectAccess, ResourceAccess } from '@app/api';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS, projectOf } from '@app/namespaces';
import type { ProjectWithNamespace } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateBranchDto, ListBranchesDto } from '../dto/branch.dto';
import { isValidBranchName } from '../git/git-repository';
import { RepositoryErrorFilter } from '../errors/repository-error';
import { BranchCaller, BranchesService } from './branches.service';
import { CreateBranchUseCase } from './use-cases/create-branch.use-case';
import { DeleteBranchUseCase, DeleteMergedBranchesUseCase } from './use-cases/delete-branch.use-case';

const callerOf = (principal: Principal | null, access: ResourceAccess): BranchCaller => ({
  user: principal ? { id: principal.user.id, isAdmin: principal.user.isAdmin } : null,
  accessLevel: access.accessLevel,
});

/** Repository branches (read endpoints work without authentication on public projects). */
@Controller()
@UseFilters(RepositoryErrorFilter)
export class BranchesController {
  constructor(
    private readonly config: AppConfig,
    private readonly branches: BranchesService,
    private readonly createBranch: CreateBranchUseCase,
    private readonly deleteBranch: DeleteBranchUseCase,
    private readonly deleteMergedBranches: DeleteMergedBranchesUseCase,
  ) {}

  @Get('projects/:id/repository/branches')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async list(
    @CurrentProject() access: ResourceAccess,
    @CurrentPrincipal() principal: Principal | null,
    @Query() dto: ListBranchesDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const project = projectOf(access);
    const repository = await this.branches.repository(project);
    const all = await this.branches.list(repository, dto.search);
    const page = paginateArray(all, request, reply, { externalUrl: this.config.http.externalUrl });
    return this.branches.present(project, repository, page, callerOf(principal, access));
  }

  @Get('projects/:id/repository/branches/:branch')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
  async get(
    @CurrentProject() access: ResourceAccess,
    @CurrentPrincipal() principal: Principal | null,
    @Param('branch') branch: string,
  ): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    const repository = await this.branches.repository(project);
    const sha = (await isValidBranchName(branch)) ? await repository.resolveCommit(`refs/heads/${branch}`) : null;
    if (!sha) throw DomainError.notFound('Branch');
    const [view] = await this.branches.present(project, repository, [{ name: branch, sha }], callerOf(principal, access));
    return view;
  }

  @Post('projects/:id/repository/branches')
  @ProjectAccess(ACCESS_LEVELS.DEVELOPER)
  async create(
    @CurrentProject() access: ResourceAccess,
    @CurrentPrincipal() principal: Principal,
    @Body() dto: CreateBranchDto,
  ): Promise<Record<string, unknown>> {
    const project = writableProject(access);
    const repository = await this.branches.repository(project);
    const caller = { ...callerOf(principal, access), user: { id: principal.user.id, isAdmin: principal.user.isAdmin } };
    const created = await this.createBranch.execute({ project, repository, caller, branch: dto.branch, ref: dto.ref });
    const [view] = await this.branches.present(project, repository, [created], caller);
    return view;
  }

  @Delete('projects/:id/repository/branches/:branch')
  @LastModified((request, get) => branchChangedAt(get(BranchesService), projectOf(request.projectAccess!), request.params.branch))
  @ProjectAccess(ACCESS_LEVELS.DEVELOPER)
  @HttpCode(204)
  async remove(@CurrentProject() access: ResourceAccess, @CurrentPrincipal() principal: Principal, @Param('branch') branch: string): Promise<void> {
    const project = writableProject(access);
    const repository = await this.branches.repository(project);
    const caller = { ...callerOf(principal, access), user: { id: principal.user.id, isAdmin: principal.user.isAdmin } };
    await this.deleteBranch.execute({ project, repository, caller, branch });
  }

  @Delete('projects/:id/repository/merged_branches')
  @LastModified.notApplicable('removes any number of branches at once')
  @ProjectAccess(ACCESS_LEVELS.DEVELOPER)
  @HttpCode(202)
  async removeMerged(@CurrentProject() access: ResourceAccess, @CurrentPrincipal() principal: Principal): Promise<{ message: string }> {
    const project = writableProject(access);
    const repository = await this.branches.repository(project);
    const caller = { ...callerOf(principal, access), user: { id: principal.user.id, isAdmin: principal.user.isAdmin } };
    await this.deleteMergedBranches.execute({ project, repository, caller });
    return { message: '202 Accepted' };
  }
}

/** Archived projects are read-only. */
/** A branch changes with its head commit: GitLab compares `If-Unmodified-Since` with the commit's authored date. */
async function branchChangedAt(branches: BranchesService, project: ProjectWithNamespace, branch: string): Promise<string | null> {
  const repository = await branches.repository(project);
  const sha = (await repository.branches()).get(branch);
  return sha ? ((await repository.commit(sha))?.authoredDate ?? null) : null;
}

function writableProject(access: ResourceAccess): ProjectWithNamespace {
  const project = projectOf(access);
  if (project.archived) throw DomainError.forbidden();
  return project;
}
