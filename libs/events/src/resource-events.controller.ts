import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { Auth, CurrentPrincipal, CurrentProject, DomainError, intParam, paginateOffset, Principal, ProjectAccess, ResourceAccess } from '@app/api';
import { AppConfig } from '@app/config';
import { IssuesRepository } from '@app/issues';
import { ACCESS_LEVELS, projectOf, toAccessUser } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ResourceEventKind, ResourceEventsRepository, ResourceOwner } from './reads/resource-events.repository';
import { ResourceEventPresenter } from './resource-event.presenter';

/**
 * Resource events of issues and merge requests (milestone, state; iteration (PREMIUM) and
 * weight for issues only), list and single. 404 for an unknown or unreadable issue or merge
 * request, and for an event that belongs to another one.
 */
@Controller('projects/:id')
@ProjectAccess(ACCESS_LEVELS.NO_ACCESS, { optional: true })
export class ResourceEventsController {
  constructor(
    private readonly config: AppConfig,
    private readonly issues: IssuesRepository,
    private readonly resourceEvents: ResourceEventsRepository,
    private readonly presenter: ResourceEventPresenter,
  ) {}

  @Get('issues/:issue_iid/resource_milestone_events')
  issueMilestones(
    @CurrentProject() a: ResourceAccess,
    @CurrentPrincipal() p: Principal | null,
    @Param('issue_iid') iid: string,
    @Req() rq: FastifyRequest,
    @Res({ passthrough: true }) rp: FastifyReply,
  ) {
    return this.list('milestone', () => this.issue(a, p, iid), rq, rp);
  }

  @Get('issues/:issue_iid/resource_milestone_events/:event_id')
  issueMilestone(@CurrentProject() a: ResourceAccess, @CurrentPrincipal() p: Principal | null, @Param('issue_iid') iid: string, @Param('event_id') id: string) {
    return this.one('milestone', intParam('resource_milestone_event_id', id, RESOURCE_EVENT_NAMES.milestone), () => this.issue(a, p, iid));
  }

  @Get('issues/:issue_iid/resource_state_events')
  issueStates(
    @CurrentProject() a: ResourceAccess,
    @CurrentPrincipal() p: Principal | null,
    @Param('issue_iid') iid: string,
    @Req() rq: FastifyRequest,
    @Res({ passthrough: true }) rp: FastifyReply,
  ) {
    return this.list('state', () => this.issue(a, p, iid), rq, rp);
  }

  @Get('issues/:issue_iid/resource_state_events/:event_id')
  issueState(@CurrentProject() a: ResourceAccess, @CurrentPrincipal() p: Principal | null, @Param('issue_iid') iid: string, @Param('event_id') id: string) {
    return this.one('state', intParam('resource_state_event_id', id, RESOURCE_EVENT_NAMES.state), () => this.issue(a, p, iid));
  }

  @Get('issues/:issue_iid/resource_iteration_events')
  @Auth({ tier: 'premium' })
  issueIterations(
    @CurrentProject() a: ResourceAccess,
    @CurrentPrincipal() p: Principal | null,
    @Param('issue_iid') iid: string,
    @Req() rq: FastifyRequest,
    @Res({ passthrough: true }) rp: FastifyReply,
  ) {
    return this.list('iteration', () => this.issue(a, p, iid), rq, rp);
  }

  @Get('issues/:issue_iid/resource_iteration_events/:event_id')
  @Auth({ tier: 'premium' })
  issueIteration(@CurrentProject() a: ResourceAccess, @CurrentPrincipal() p: Principal | null, @Param('issue_iid') iid: string, @Param('event_id') id: string) {
    return this.one('iteration', intParam('resource_iteration_event_id', id, RESOURCE_EVENT_NAMES.iteration), () => this.issue(a, p, iid));
  }

  @Get('issues/:issue_iid/resource_weight_events')
  issueWeights(
    @CurrentProject() a: ResourceAccess,
    @CurrentPrincipal() p: Principal | null,
    @Param('issue_iid') iid: string,
    @Req() rq: FastifyRequest,
    @Res({ passthrough: true }) rp: FastifyReply,
  ) {
    return this.list('weight', () => this.issue(a, p, iid), rq, rp);
  }

  @Get('issues/:issue_iid/resource_weight_events/:event_id')
  issueWeight(@CurrentProject() a: ResourceAccess, @CurrentPrincipal() p: Principal | null, @Param('issue_iid') iid: string, @Param('event_id') id: string) {
    return this.one('weight', intParam('resource_weight_event_id', id, RESOURCE_EVENT_NAMES.weight), () => this.issue(a, p, iid));
  }

  @Get('merge_requests/:merge_request_iid/resource_milestone_events')
  mrMilestones(
    @CurrentProject() a: ResourceAccess,
    @CurrentPrincipal() p: Principal | null,
    @Param('merge_request_iid') iid: string,
    @Req() rq: FastifyRequest,
    @Res({ passthrough: true }) rp: FastifyReply,
  ) {
    return this.list('milestone', () => this.mergeRequest(a, p, iid), rq, rp);
  }

  @Get('merge_requests/:merge_request_iid/resource_milestone_events/:event_id')
  mrMilestone(
    @CurrentProject() a: ResourceAccess,
    @CurrentPrincipal() p: Principal | null,
    @Param('merge_request_iid') iid: string,
    @Param('event_id') id: string,
  ) {
    return this.one('milestone', intParam('resource_milestone_event_id', id, RESOURCE_EVENT_NAMES.milestone), () => this.mergeRequest(a, p, iid));
  }

  @Get('merge_requests/:merge_request_iid/resource_state_events')
  mrStates(
    @CurrentProject() a: ResourceAccess,
    @CurrentPrincipal() p: Principal | null,
    @Param('merge_request_iid') iid: string,
    @Req() rq: FastifyRequest,
    @Res({ passthrough: true }) rp: FastifyReply,
  ) {
    return this.list('state', () => this.mergeRequest(a, p, iid), rq, rp);
  }

  @Get('merge_requests/:merge_request_iid/resource_state_events/:event_id')
  mrState(
    @CurrentProject() a: ResourceAccess,
    @CurrentPrincipal() p: Principal | null,
    @Param('merge_request_iid') iid: string,
    @Param('event_id') id: string,
  ) {
    return this.one('state', intParam('resource_state_event_id', id, RESOURCE_EVENT_NAMES.state), () => this.mergeRequest(a, p, iid));
  }

  private async issue(access: ResourceAccess, principal: Principal | null, rawIid: string): Promise<ResourceOwner> {
    const project = projectOf(access);
    const issue = await this.issues.findByIid(project.id, intParam('issue_iid', rawIid, 'Issue'));
    if (!issue || !this.issues.canRead(issue, toAccessUser(principal), access.accessLevel)) throw DomainError.notFound('Issue');
    return { kind: 'Issue', id: issue.id, project, readerId: principal?.user.id ?? null };
  }

  private async mergeRequest(access: ResourceAccess, principal: Principal | null, rawIid: string): Promise<ResourceOwner> {
    const project = projectOf(access);
    const mr = await this.issues.findMergeRequestByIid(project.id, intParam('merge_request_iid', rawIid, 'Merge Request'));
    if (!mr) throw DomainError.notFound('Merge Request');
    return { kind: 'MergeRequest', id: mr.id, project, readerId: principal?.user.id ?? null };
  }

  // The owner is looked up by a function called here, after every parameter was validated: a
  // lookup started before a parameter check that throws would be a promise nobody awaits (its
  // 404 an unhandled rejection, which ends the process).
  private async list(
    kind: ResourceEventKind,
    owner: () => Promise<ResourceOwner>,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<Record<string, unknown>[]> {
    const resolved = await owner();
    await this.resourceEvents.awaitOwnWrites(resolved);
    const qb = this.resourceEvents.query(kind, resolved);
    const rows = await paginateOffset(qb, request, reply, { externalUrl: this.config.http.externalUrl });
    return this.presenter.present(kind, rows, resolved);
  }

  private async one(kind: ResourceEventKind, eventId: number, owner: () => Promise<ResourceOwner>): Promise<Record<string, unknown>> {
    const resolved = await owner();
    await this.resourceEvents.awaitOwnWrites(resolved);
    const row = await this.resourceEvents.query(kind, resolved).andWhere('r.id = :eventId', { eventId }).getOne();
    if (!row) throw DomainError.notFound(RESOURCE_EVENT_NAMES[kind]);
    const [view] = await this.presenter.present(kind, [row], resolved);
    return view;
  }
}

const RESOURCE_EVENT_NAMES: Record<ResourceEventKind, string> = {
  milestone: 'Resource Milestone Event',
  state: 'Resource State Event',
  iteration: 'Resource Iteration Event',
  weight: 'Resource Weight Event',
};
