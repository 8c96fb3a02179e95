import {
  Auth,
  CurrentPrincipal,
  CurrentProject,
  LastModified,
  paginateArray,
  Principal,
  ProjectAccess,
  ResourceAccess,
  rowChangedAt,
  tierAtLeast,
} from '@app/api';
import { ProtectedBranchEntity } from './entities/protected-branch.entity';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS, projectOf } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateProtectedBranchDto, ListProtectedBranchesDto, UpdateProtectedBranchDto } from './dto/protected-branch.dto';
import { presentProtectedBranch, ProtectedBranchView } from './protected-branch.presenter';
import { ProtectedBranchesRepository, ProtectedBranchRecord } from './protected-branches.repository';
import { CreateProtectedBranchUseCase } from './use-cases/create-protected-branch.use-case';
import { DeleteProtectedBranchUseCase } from './use-cases/delete-protected-branch.use-case';
import { ruleNotFound, UpdateProtectedBranchUseCase } from './use-cases/update-protected-branch.use-case';

/** Developers and above read the rules; maintainers manage them. */
export const READ_PROTECTED_BRANCHES_LEVEL = ACCESS_LEVELS.DEVELOPER;
export const MANAGE_PROTECTED_BRANCHES_LEVEL = ACCESS_LEVELS.MAINTAINER;

const actorOf = (principal: Principal): { id: number; isAdmin: boolean } => ({ id: principal.user.id, isAdmin: principal.user.isAdmin });

/**
 * `/projects/:id/protected_branches`. `:name` is the URL-encoded branch name or wildcard
 * (`release%2F*`); a wildcard rule is listed and addressed as the wildcard itself.
 */
@Controller('projects/:id/protected_branches')
export class ProtectedBranchesController {
  constructor(
    private readonly config: AppConfig,
    private readonly repository: ProtectedBranchesRepository,
    private readonly createRule: CreateProtectedBranchUseCase,
    private readonly updateRule: UpdateProtectedBranchUseCase,
    private readonly deleteRule: DeleteProtectedBranchUseCase,
  ) {}

  private get premium(): boolean {
    return tierAtLeast(this.config.tier, 'premium');
  }

  private present(rule: ProtectedBranchRecord): ProtectedBranchView {
    return presentProtectedBranch(rule, this.premium);
  }

  @Get()
  @ProjectAccess(READ_PROTECTED_BRANCHES_LEVEL)
  async list(
    @CurrentProject() access: ResourceAccess,
    @Query() dto: ListProtectedBranchesDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ProtectedBranchView[]> {
    const rules = await this.repository.list(projectOf(access).id, { search: dto.search });
    return paginateArray(rules, req, reply, { externalUrl: this.config.http.externalUrl }).map((rule) => this.present(rule));
  }

  @Get(':name')
  @ProjectAccess(READ_PROTECTED_BRANCHES_LEVEL)
  async get(@CurrentProject() access: ResourceAccess, @Param('name') name: string): Promise<ProtectedBranchView> {
    const rule = await this.repository.findByName(projectOf(access).id, name);
    if (!rule) throw ruleNotFound();
    return this.present(rule);
  }

  @Post()
  @ProjectAccess(MANAGE_PROTECTED_BRANCHES_LEVEL)
  async create(
    @CurrentProject() access: ResourceAccess,
    @Body() dto: CreateProtectedBranchDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ProtectedBranchView> {
    return this.present(await this.createRule.execute({ project: projectOf(access), attributes: dto, actorId: principal.user.id }));
  }

  @Patch(':name')
  @Auth({ project: { param: 'id', minAccessLevel: MANAGE_PROTECTED_BRANCHES_LEVEL }, tier: 'premium' })
  async update(
    @CurrentProject() access: ResourceAccess,
    @Param('name') name: string,
    @Body() dto: UpdateProtectedBranchDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ProtectedBranchView> {
    return this.present(
      await this.updateRule.execute({ project: projectOf(access), name, attributes: dto, actor: actorOf(principal), accessLevel: access.accessLevel }),
    );
  }

  @Delete(':name')
  @LastModified((request, get) => rowChangedAt(get, ProtectedBranchEntity, { projectId: projectOf(request.projectAccess!).id, name: request.params.name }))
  @ProjectAccess(MANAGE_PROTECTED_BRANCHES_LEVEL)
  @HttpCode(204)
  async remove(@CurrentProject() access: ResourceAccess, @Param('name') name: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.deleteRule.execute({ project: projectOf(access), name, actor: actorOf(principal), accessLevel: access.accessLevel });
  }
}
