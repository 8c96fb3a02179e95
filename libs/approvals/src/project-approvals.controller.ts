import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import {
  Auth,
  CurrentPrincipal,
  CurrentProject,
  intParam,
  LastModified,
  paginateOffset,
  Principal,
  ProjectAccess,
  ResourceAccess,
  rowChangedAt,
} from '@app/api';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS, accessUserOf, projectOf } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApprovalRulesRepository } from './core/approval-rules.repository';
import { ApprovalsPresenter } from './approvals.presenter';
import { CreateProjectRuleDto, UpdateProjectApprovalsDto, UpdateProjectRuleDto } from './dto/approvals.dto';
import { ApprovalProjectRuleEntity } from './entities';
import { ruleNotFound } from './use-cases/approval-commands';
import { CreateProjectRuleUseCase } from './use-cases/create-project-rule/create-project-rule.use-case';
import { DeleteProjectRuleUseCase } from './use-cases/delete-project-rule/delete-project-rule.use-case';
import { UpdateProjectApprovalsUseCase } from './use-cases/update-project-approvals/update-project-approvals.use-case';
import { UpdateProjectRuleUseCase } from './use-cases/update-project-rule/update-project-rule.use-case';

const ruleIdOf = (raw: string): number => intParam('approval_rule_id', raw, 'Approval Rule');

/**
 * Project approval configuration and rules (PREMIUM; 403 below). Anyone who can see the project
 * reads the configuration; Developers and more read the rules (GitLab's `create_merge_request_in`);
 * Maintainers change both.
 */
@Controller()
@Auth({ tier: 'premium' })
export class ProjectApprovalsController {
  constructor(
    private readonly config: AppConfig,
    private readonly repository: ApprovalRulesRepository,
    private readonly presenter: ApprovalsPresenter,
    private readonly updateSettings: UpdateProjectApprovalsUseCase,
    private readonly createRule: CreateProjectRuleUseCase,
    private readonly updateRule: UpdateProjectRuleUseCase,
    private readonly deleteRule: DeleteProjectRuleUseCase,
  ) {}

  /** `GET /projects/:id/approvals`: the approval configuration. */
  @Get('projects/:id/approvals')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async settings(@CurrentProject() access: ResourceAccess): Promise<Record<string, unknown>> {
    return this.presenter.settings(await this.repository.settingsOf(projectOf(access).id));
  }

  /** `POST /projects/:id/approvals`: changes the given attributes of the configuration. */
  @Post('projects/:id/approvals')
  @ProjectAccess(ACCESS_LEVELS.MAINTAINER)
  async update(@CurrentProject() access: ResourceAccess, @Body() dto: UpdateProjectApprovalsDto): Promise<Record<string, unknown>> {
    return this.presenter.settings(await this.updateSettings.execute(projectOf(access).id, dto));
  }

  /** `GET /projects/:id/approval_rules` (paginated). */
  @Get('projects/:id/approval_rules')
  @ProjectAccess(ACCESS_LEVELS.DEVELOPER)
  async list(
    @CurrentProject() access: ResourceAccess,
    @CurrentPrincipal() principal: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const project = projectOf(access);
    const rows = await paginateOffset(this.repository.projectRulesQuery(project.id), req, reply, { externalUrl: this.config.http.externalUrl });
    return this.presenter.projectRules(project.id, rows, accessUserOf(principal));
  }

  @Get('projects/:id/approval_rules/:approval_rule_id')
  @ProjectAccess(ACCESS_LEVELS.DEVELOPER)
  async get(
    @CurrentProject() access: ResourceAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('approval_rule_id') rawId: string,
  ): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    const rule = await this.repository.findProjectRule(project.id, ruleIdOf(rawId));
    if (!rule) throw ruleNotFound();
    return (await this.presenter.projectRules(project.id, [rule], accessUserOf(principal)))[0];
  }

  @Post('projects/:id/approval_rules')
  @ProjectAccess(ACCESS_LEVELS.MAINTAINER)
  async create(
    @CurrentProject() access: ResourceAccess,
    @CurrentPrincipal() principal: Principal,
    @Body() dto: CreateProjectRuleDto,
  ): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    const rule = await this.createRule.execute(project.id, accessUserOf(principal), dto);
    return (await this.presenter.projectRules(project.id, [rule], accessUserOf(principal)))[0];
  }

  /** `PUT /projects/:id/approval_rules/:approval_rule_id`: approvers not listed are removed. */
  @Put('projects/:id/approval_rules/:approval_rule_id')
  @ProjectAccess(ACCESS_LEVELS.MAINTAINER)
  async change(
    @CurrentProject() access: ResourceAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('approval_rule_id') rawId: string,
    @Body() dto: UpdateProjectRuleDto,
  ): Promise<Record<string, unknown>> {
    const project = projectOf(access);
    const rule = await this.updateRule.execute(project.id, ruleIdOf(rawId), accessUserOf(principal), dto);
    return (await this.presenter.projectRules(project.id, [rule], accessUserOf(principal)))[0];
  }

  @Delete('projects/:id/approval_rules/:approval_rule_id')
  @LastModified((request, get) => rowChangedAt(get, ApprovalProjectRuleEntity, { id: ruleIdOf(request.params.approval_rule_id) }))
  @ProjectAccess(ACCESS_LEVELS.MAINTAINER)
  @HttpCode(204)
  async remove(@CurrentProject() access: ResourceAccess, @Param('approval_rule_id') rawId: string): Promise<void> {
    await this.deleteRule.execute(projectOf(access).id, ruleIdOf(rawId));
  }
}
