import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import {
  Auth,
  CurrentPrincipal,
  CurrentProject,
  intParam,
  LastModified,
  paginateArray,
  Principal,
  ProjectAccess,
  ResourceAccess,
  rowChangedAt,
} from '@app/api';
import { AppConfig } from '@app/config';
import { MergeRequestEntity } from '@app/issues';
import { ACCESS_LEVELS, accessUserOf, projectOf, ProjectWithNamespace } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApprovalsPresenter } from './approvals.presenter';
import { ApproveDto, CreateMergeRequestRuleDto, SetApprovalsRequiredDto, UpdateMergeRequestRuleDto } from './dto/approvals.dto';
import { ApprovalMergeRequestRuleEntity } from './entities';
import { ApprovalActor, ruleNotFound } from './use-cases/approval-commands';
import { ApproveMergeRequestUseCase } from './use-cases/approve-merge-request/approve-merge-request.use-case';
import { CreateMergeRequestRuleUseCase } from './use-cases/create-merge-request-rule/create-merge-request-rule.use-case';
import { DeleteMergeRequestRuleUseCase } from './use-cases/delete-merge-request-rule/delete-merge-request-rule.use-case';
import { GetApprovalStatusUseCase } from './use-cases/get-approval-status/get-approval-status.use-case';
import { GetMergeRequestApprovalsUseCase } from './use-cases/get-merge-request-approvals/get-merge-request-approvals.use-case';
import { LoadApprovalContextsUseCase } from './use-cases/load-approval-contexts/load-approval-contexts.use-case';
import { ResetApprovalsUseCase } from './use-cases/reset-approvals/reset-approvals.use-case';
import { SetApprovalsRequiredUseCase } from './use-cases/set-approvals-required/set-approvals-required.use-case';
import { UnapproveMergeRequestUseCase } from './use-cases/unapprove-merge-request/unapprove-merge-request.use-case';
import { UpdateMergeRequestRuleUseCase } from './use-cases/update-merge-request-rule/update-merge-request-rule.use-case';

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
    private readonly presenter: ApprovalsPresenter,
    private readonly contexts: LoadApprovalContextsUseCase,
    private readonly getApprovals: GetMergeRequestApprovalsUseCase,
    private readonly getStatus: GetApprovalStatusUseCase,
    private readonly approve: ApproveMergeRequestUseCase,
    private readonly unapprove: UnapproveMergeRequestUseCase,
    private readonly reset: ResetApprovalsUseCase,
    private readonly setApprovalsRequired: SetApprovalsRequiredUseCase,
    private readonly createMergeRequestRule: CreateMergeRequestRuleUseCase,
    private readonly updateMergeRequestRule: UpdateMergeRequestRuleUseCase,
    private readonly deleteMergeRequestRule: DeleteMergeRequestRuleUseCase,
  ) {}

  /** The approval status (`GET …/approvals`, and the answer of approve, unapprove and `POST …/approvals`). */
  private async status(project: ProjectWithNamespace, mr: MergeRequestEntity | { iid: number }, principal: Principal, access: ResourceAccess): Promise<View> {
    const { context, mergeStatus, canApprove } = await this.getStatus.execute(project, mr, actorOf(principal, access));
    return this.presenter.approvalStatus(context, mergeStatus, { id: principal.user.id }, canApprove);
  }

  @Get('projects/:id/merge_requests/:merge_request_iid/approvals')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async approvals(
    @CurrentProject() access: ResourceAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('merge_request_iid') rawIid: string,
  ): Promise<View> {
    const project = projectOf(access);
    return this.status(project, { iid: iidOf(rawIid) }, principal, access);
  }

  /** `POST …/approvals` (deprecated since 12.0): the merge request's own number of required approvals. */
  @Post('projects/:id/merge_requests/:merge_request_iid/approvals')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async setRequired(
    @CurrentProject() access: ResourceAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('merge_request_iid') rawIid: string,
    @Body() dto: SetApprovalsRequiredDto,
  ): Promise<View> {
    const project = projectOf(access);
    const mr = await this.setApprovalsRequired.execute(project, iidOf(rawIid), actorOf(principal, access), dto.approvals_required);
    return this.status(project, mr, principal, access);
  }

  @Get('projects/:id/merge_requests/:merge_request_iid/approval_state')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async approvalState(
    @CurrentProject() access: ResourceAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('merge_request_iid') rawIid: string,
  ): Promise<View> {
    const project = projectOf(access);
    return this.presenter.approvalState(await this.getApprovals.execute(project, iidOf(rawIid)), accessUserOf(principal));
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
    const context = await this.getApprovals.execute(project, iidOf(rawIid));
    const page = paginateArray(context.rules, req, reply, { externalUrl: this.config.http.externalUrl });
    return this.presenter.mergeRequestRules(context, page, accessUserOf(principal));
  }

  @Get('projects/:id/merge_requests/:merge_request_iid/approval_rules/:approval_rule_id')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async getRule(
    @CurrentProject() access: ResourceAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('merge_request_iid') rawIid: string,
    @Param('approval_rule_id') rawId: string,
  ): Promise<View> {
    const project = projectOf(access);
    const context = await this.getApprovals.execute(project, iidOf(rawIid));
    const rule = context.rules.find((r) => r.id === ruleIdOf(rawId));
    if (!rule) throw ruleNotFound();
    return (await this.presenter.mergeRequestRules(context, [rule], accessUserOf(principal)))[0];
  }

  @Post('projects/:id/merge_requests/:merge_request_iid/approval_rules')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async createRule(
    @CurrentProject() access: ResourceAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('merge_request_iid') rawIid: string,
    @Body() dto: CreateMergeRequestRuleDto,
  ): Promise<View> {
    const project = projectOf(access);
    const { mr, rule } = await this.createMergeRequestRule.execute(project, iidOf(rawIid), actorOf(principal, access), dto);
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
    const { mr, rule } = await this.updateMergeRequestRule.execute(project, iidOf(rawIid), ruleIdOf(rawId), actorOf(principal, access), dto);
    return this.presentRule(mr, rule, principal);
  }

  @Delete('projects/:id/merge_requests/:merge_request_iid/approval_rules/:approval_rule_id')
  @LastModified((request, get) => rowChangedAt(get, ApprovalMergeRequestRuleEntity, { id: ruleIdOf(request.params.approval_rule_id) }))
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @HttpCode(204)
  async removeRule(
    @CurrentProject() access: ResourceAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('merge_request_iid') rawIid: string,
    @Param('approval_rule_id') rawId: string,
  ): Promise<void> {
    await this.deleteMergeRequestRule.execute(projectOf(access), iidOf(rawIid), ruleIdOf(rawId), actorOf(principal, access));
  }

  private async presentRule(mr: MergeRequestEntity, rule: ApprovalMergeRequestRuleEntity, principal: Principal): Promise<View> {
    const context = (await this.contexts.execute([mr])).get(mr.id)!;
    return (await this.presenter.mergeRequestRules(context, [rule], accessUserOf(principal)))[0];
  }

  /** `POST …/approve` (`sha`, `approval_password`): the approval status. */
  @Post('projects/:id/merge_requests/:merge_request_iid/approve')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async approveMergeRequest(
    @CurrentProject() access: ResourceAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('merge_request_iid') rawIid: string,
    @Body() dto: ApproveDto,
  ): Promise<View> {
    const project = projectOf(access);
    const mr = await this.approve.execute(project, iidOf(rawIid), actorOf(principal, access), { sha: dto.sha, password: dto.approval_password });
    return this.status(project, mr, principal, access);
  }

  @Post('projects/:id/merge_requests/:merge_request_iid/unapprove')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  async unapproveMergeRequest(
    @CurrentProject() access: ResourceAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('merge_request_iid') rawIid: string,
  ): Promise<View> {
    const project = projectOf(access);
    const mr = await this.unapprove.execute(project, iidOf(rawIid), actorOf(principal, access));
    return this.status(project, mr, principal, access);
  }

  /** `PUT …/reset_approvals`: 202 with GitLab's body, the JSON number `202` (bots and maintainers; 401 for others). */
  @Put('projects/:id/merge_requests/:merge_request_iid/reset_approvals')
  @ProjectAccess(ACCESS_LEVELS.NO_ACCESS)
  @HttpCode(202)
  async resetApprovals(
    @CurrentProject() access: ResourceAccess,
    @CurrentPrincipal() principal: Principal,
    @Param('merge_request_iid') rawIid: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const bot = principal.user.userType === 'project_bot' || principal.user.userType === 'group_bot';
    await this.reset.execute(projectOf(access), iidOf(rawIid), { ...actorOf(principal, access), bot });
    // GitLab's endpoint ends with `status :accepted`, whose value Grape renders as the body.
    reply.type('application/json');
    return '202';
  }
}
