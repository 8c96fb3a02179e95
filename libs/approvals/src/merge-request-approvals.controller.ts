import { Body, Controller, Delete, Get, HttpCode, Inject, Optional, Param, Post, Put, Req, Res } from '@nestjs/common';
import { Auth, CurrentPrincipal, CurrentProject, intParam, LastModified, paginateArray, Principal, ProjectAccess, ResourceAccess, rowChangedAt } from '@app/api';
import { AppConfig } from '@app/config';
import { MERGE_REQUEST_GIT, MergeRequestEntity, MergeRequestGit } from '@app/issues';
import { ACCESS_LEVELS, accessUserOf, projectOf, ProjectWithNamespace } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { ApprovalRulesService } from './approval-rules.service';
import { ApprovalsPresenter } from './approvals.presenter';
import { ApproveDto, CreateMergeRequestRuleDto, SetApprovalsRequiredDto, UpdateMergeRequestRuleDto } from './dto/approvals.dto';
import { ApprovalMergeRequestRuleEntity } from './entities';
import {
  ApprovalActor,
  ApprovalEligibility,
  ApproveMergeRequestUseCase,
  findMergeRequest,
  MergeRequestRulesUseCases,
  ResetApprovalsUseCase,
  UnapproveMergeRequestUseCase,
} from './use-cases/merge-request-approvals.use-cases';
import { ruleNotFound } from './use-cases/project-approvals.use-cases';

type View = Record<string, unknown>;

const iidOf = (raw: string): number => intParam('merge_request_iid', raw, 'Merge Request');
const ruleIdOf = (raw: string): number => intParam('approval_rule_id', raw, 'Approval Rule');
const actorOf = (principal: Principal, access: ResourceAccess): ApprovalActor => ({
  id: principal.user.id,
  isAdmin: principal.user.isAdmin,
  external: principal.user.external,
  accessLevel: access.accessLevel,
});

/**
 * Merge request approvals (PREMIUM; 403 below): status and state, merge request rules, approve,
 * unapprove, reset. Anyone who can see the project reads them; who may write is decided by the
 * use cases as GitLab's policies do.
 */
@Controller()
@Auth({ tier: 'premium' })
export class MergeRequestApprovalsController {
  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly rules: ApprovalRulesService,
    private readonly presenter: ApprovalsPresenter,
    private readonly eligibility: ApprovalEligibility,
    private readonly approve: ApproveMergeRequestUseCase,
    private readonly unapprove: UnapproveMergeRequestUseCase,
    private readonly reset: ResetApprovalsUseCase,
    private readonly mrRules: MergeRequestRulesUseCases,
    @Optional() @Inject(MERGE_REQUEST_GIT) private readonly git?: MergeRequestGit,
  ) {}

  /** The approval status (`GET …/approvals`, and the answer of approve, unapprove and `POST …/approvals`). */
  private async status(project: ProjectWithNamespace, mr: MergeRequestEntity, principal: Principal, access: ResourceAccess): Promise<View> {
    const context = await this.rules.context(mr);
    let mergeStatus = 'can_be_merged';
    if (mr.state === 'opened' && this.git) [{ mergeStatus }] = await this.git.statuses(project, [mr]);
    const canApprove = await this.eligibility.canApprove(context, project, actorOf(principal, access), this.dataSource.manager);
    return this.presenter.approvalStatus(context, mergeStatus, { id: principal.user.id }, canApprove);
  }

  @Get('projects/:id/merge_requests/:merge_request_iid/approvals')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async approvals(@CurrentProject() access: ResourceAccess, @CurrentPrincipal() principal: Principal, @Param('merge_request_iid') rawIid: string): Promise<View> {
    const project = projectOf(access);
    return this.status(project, await findMergeRequest(this.dataSource.manager, project.id, iidOf(rawIid)), principal, access);
  }

  /** `POST …/approvals` (deprecated since 12.0): the merge request's own number of required approvals. */
  @Post('projects/:id/merge_requests/:merge_request_iid/approvals')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async setRequired(@CurrentProject() access: ResourceAccess, @CurrentPrincipal() principal: Principal, @Param('merge_request_iid') rawIid: string, @Body() dto: SetApprovalsRequiredDto): Promise<View> {
    const project = projectOf(access);
    const mr = await this.mrRules.setApprovalsRequired(project, iidOf(rawIid), actorOf(principal, access), dto.approvals_required);
    return this.status(project, mr, principal, access);
  }

  @Get('projects/:id/merge_requests/:merge_request_iid/approval_state')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async approvalState(@CurrentProject() access: ResourceAccess, @CurrentPrincipal() principal: Principal, @Param('merge_request_iid') rawIid: string): Promise<View> {
    const project = projectOf(access);
    const mr = await findMergeRequest(this.dataSource.manager, project.id, iidOf(rawIid));
    return this.presenter.approvalState(await this.rules.context(mr), accessUserOf(principal));
  }

  @Get('projects/:id/merge_requests/:merge_request_iid/approval_rules')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async listRules(
    @CurrentProject() access: ResourceAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('merge_request_iid') rawIid: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<View[]> {
    const project = projectOf(access);
    const context = await this.rules.context(await findMergeRequest(this.dataSource.manager, project.id, iidOf(rawIid)));
    const page = paginateArray(context.rules, req, reply, { externalUrl: this.config.http.externalUrl });
    return this.presenter.mergeRequestRules(context, page, accessUserOf(principal));
  }

  @Get('projects/:id/merge_requests/:merge_request_iid/approval_rules/:approval_rule_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async getRule(@CurrentProject() access: ResourceAccess, @CurrentPrincipal() principal: Principal, @Param('merge_request_iid') rawIid: string, @Param('approval_rule_id') rawId: string): Promise<View> {
    const project = projectOf(access);
    const context = await this.rules.context(await findMergeRequest(this.dataSource.manager, project.id, iidOf(rawIid)));
    const rule = context.rules.find((r) => r.id === ruleIdOf(rawId));
    if (!rule) throw ruleNotFound();
    return (await this.presenter.mergeRequestRules(context, [rule], accessUserOf(principal)))[0];
  }

  @Post('projects/:id/merge_requests/:merge_request_iid/approval_rules')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async createRule(@CurrentProject() access: ResourceAccess, @CurrentPrincipal() principal: Principal, @Param('merge_request_iid') rawIid: string, @Body() dto: CreateMergeRequestRuleDto): Promise<View> {
    const project = projectOf(access);
    const { mr, rule } = await this.mrRules.create(project, iidOf(rawIid), actorOf(principal, access), dto);
    return this.presentRule(mr, rule, principal);
  }

  /** `PUT …/approval_rules/:approval_rule_id`: 403 for `report_approver` and `code_owner` rules, and while overriding is disabled. */
  @Put('projects/:id/merge_requests/:merge_request_iid/approval_rules/:approval_rule_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async updateRule(
    @CurrentProject() access: ResourceAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('merge_request_iid') rawIid: string,
    @Param('approval_rule_id') rawId: string,
    @Body() dto: UpdateMergeRequestRuleDto,
  ): Promise<View> {
    const project = projectOf(access);
    const { mr, rule } = await this.mrRules.update(project, iidOf(rawIid), ruleIdOf(rawId), actorOf(principal, access), dto);
    return this.presentRule(mr, rule, principal);
  }

  @Delete('projects/:id/merge_requests/:merge_request_iid/approval_rules/:approval_rule_id')
  @LastModified((request, get) => rowChangedAt(get, ApprovalMergeRequestRuleEntity, { id: ruleIdOf(request.params.approval_rule_id) }))
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @HttpCode(204)
  async removeRule(@CurrentProject() access: ResourceAccess, @CurrentPrincipal() principal: Principal, @Param('merge_request_iid') rawIid: string, @Param('approval_rule_id') rawId: string): Promise<void> {
    await this.mrRules.remove(projectOf(access), iidOf(rawIid), ruleIdOf(rawId), actorOf(principal, access));
  }

  private async presentRule(mr: MergeRequestEntity, rule: ApprovalMergeRequestRuleEntity, principal: Principal): Promise<View> {
    const context = await this.rules.context(mr);
    return (await this.presenter.mergeRequestRules(context, [rule], accessUserOf(principal)))[0];
  }

  /** `POST …/approve` (`sha`, `approval_password`): the approval status. */
  @Post('projects/:id/merge_requests/:merge_request_iid/approve')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async approveMergeRequest(@CurrentProject() access: ResourceAccess, @CurrentPrincipal() principal: Principal, @Param('merge_request_iid') rawIid: string, @Body() dto: ApproveDto): Promise<View> {
    const project = projectOf(access);
    const mr = await this.approve.execute(project, iidOf(rawIid), actorOf(principal, access), { sha: dto.sha, password: dto.approval_password });
    return this.status(project, mr, principal, access);
  }

  @Post('projects/:id/merge_requests/:merge_request_iid/unapprove')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async unapproveMergeRequest(@CurrentProject() access: ResourceAccess, @CurrentPrincipal() principal: Principal, @Param('merge_request_iid') rawIid: string): Promise<View> {
    const project = projectOf(access);
    const mr = await this.unapprove.execute(project, iidOf(rawIid), actorOf(principal, access));
    return this.status(project, mr, principal, access);
  }

  /** `PUT …/reset_approvals`: 202, every approval removed (bots and maintainers; 401 for others). */
  @Put('projects/:id/merge_requests/:merge_request_iid/reset_approvals')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @HttpCode(202)
  async resetApprovals(@CurrentProject() access: ResourceAccess, @CurrentPrincipal() principal: Principal, @Param('merge_request_iid') rawIid: string): Promise<void> {
    const bot = principal.user.userType === 'project_bot' || principal.user.userType === 'group_bot';
    await this.reset.execute(projectOf(access), iidOf(rawIid), { ...actorOf(principal, access), bot });
  }
}
