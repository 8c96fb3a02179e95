import {
  ACCESS_RESOLVER,
  AccessResolver,
  Auth,
  CurrentPrincipal,
  CurrentProject,
  DomainError,
  idParam,
  paginateOffset,
  Principal,
  ProjectAccess,
  ResourceAccess,
} from '@app/api';
import { Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { ACCESS_LEVELS, accessUserOf, projectOf, type ProjectWithNamespace } from '@app/namespaces';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateVulnerabilityQueryDto, ListFindingsDto } from './dto/vulnerability.dto';
import type { VulnerabilityEntity } from './entities';
import { CreateVulnerabilityUseCase } from './use-cases/create-vulnerability.use-case';
import { TransitionVulnerabilityUseCase, VulnerabilityAction } from './use-cases/transition-vulnerability.use-case';
import type { ProjectScope } from './core/vulnerabilities.events';
import { VulnerabilitiesRepository } from './core/vulnerabilities.repository';
import { FindingListView, presentFindingListItem, presentVulnerability, VulnerabilityView } from './vulnerability.presenter';

/** Who reads vulnerabilities (the project security dashboard): developers and above. */
export const READ_VULNERABILITY_LEVEL = ACCESS_LEVELS.DEVELOPER;
/** Who creates vulnerabilities and changes their state (GitLab's `admin_vulnerability`): maintainers and above. */
export const ADMIN_VULNERABILITY_LEVEL = ACCESS_LEVELS.MAINTAINER;

const scopeOf = (project: ProjectWithNamespace): ProjectScope => ({
  projectId: project.id,
  groupId: project.namespace.kind === 'group' ? project.namespace.id : null,
});

/**
 * Vulnerabilities (ULTIMATE): a project's list and creation from a finding, and the
 * single-vulnerability actions (`/vulnerabilities/:id`, confirm, resolve, dismiss, revert).
 * Below ULTIMATE every route answers 403 naming the tier.
 */
@Controller()
@Auth({ tier: 'ultimate' })
export class VulnerabilitiesController {
  constructor(
    private readonly config: AppConfig,
    private readonly repository: VulnerabilitiesRepository,
    private readonly createVulnerability: CreateVulnerabilityUseCase,
    private readonly transition: TransitionVulnerabilityUseCase,
    @Inject(ACCESS_RESOLVER) private readonly access: AccessResolver,
  ) {}

  @Get('projects/:id/vulnerabilities')
  @ProjectAccess(READ_VULNERABILITY_LEVEL)
  async list(
    @CurrentProject() access: ResourceAccess,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VulnerabilityView[]> {
    const project = projectOf(access);
    const rows = await paginateOffset(this.repository.listQuery(project.id), req, reply, { externalUrl: this.config.http.externalUrl });
    const findings = await this.repository.findingsOf(rows.map((row) => row.id));
    return rows.map((row) => presentVulnerability(row, project, findings.get(row.id) ?? null));
  }

  /** The project's findings (from its default-branch security reports): what `POST …/vulnerabilities?finding_id=` takes. */
  @Get('projects/:id/vulnerability_findings')
  @ProjectAccess(READ_VULNERABILITY_LEVEL)
  async listFindings(
    @CurrentProject() access: ResourceAccess,
    @Query() dto: ListFindingsDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<FindingListView[]> {
    const project = projectOf(access);
    const query = this.repository.findingsQuery(project.id, {
      reportTypes: dto.report_type,
      severities: dto.severity,
      confidences: dto.confidence,
      hideDismissed: (dto.scope ?? 'dismissed') === 'dismissed',
    });
    const rows = await paginateOffset(query, req, reply, { externalUrl: this.config.http.externalUrl });
    const details = await this.repository.findingDetails(rows);
    return rows.map((row) =>
      presentFindingListItem(row, project, {
        scanner: details.scanners.get(row.scannerId),
        identifiers: details.identifiers.get(row.id) ?? [],
        state: row.vulnerabilityId === null ? undefined : details.states.get(row.vulnerabilityId),
      }),
    );
  }

  @Post('projects/:id/vulnerabilities')
  @ProjectAccess(ADMIN_VULNERABILITY_LEVEL)
  async create(
    @CurrentProject() access: ResourceAccess,
    @Query() dto: CreateVulnerabilityQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<VulnerabilityView> {
    const project = projectOf(access);
    const { vulnerability, finding } = await this.createVulnerability.execute({
      scope: scopeOf(project),
      findingId: dto.finding_id,
      actorId: principal.user.id,
    });
    return presentVulnerability(vulnerability, project, finding);
  }

  @Get('vulnerabilities/:id')
  async show(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<VulnerabilityView> {
    const { vulnerability, project } = await this.authorize(id, principal, READ_VULNERABILITY_LEVEL);
    const finding = (await this.repository.findingsOf([vulnerability.id])).get(vulnerability.id) ?? null;
    return presentVulnerability(vulnerability, project, finding);
  }

  @Post('vulnerabilities/:id/confirm')
  @HttpCode(201)
  confirm(
    @Param('id') id: string,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VulnerabilityView | undefined> {
    return this.act(id, 'confirm', principal, reply);
  }

  @Post('vulnerabilities/:id/resolve')
  @HttpCode(201)
  resolve(
    @Param('id') id: string,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VulnerabilityView | undefined> {
    return this.act(id, 'resolve', principal, reply);
  }

  @Post('vulnerabilities/:id/dismiss')
  @HttpCode(201)
  dismiss(
    @Param('id') id: string,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VulnerabilityView | undefined> {
    return this.act(id, 'dismiss', principal, reply);
  }

  @Post('vulnerabilities/:id/revert')
  @HttpCode(201)
  revert(
    @Param('id') id: string,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VulnerabilityView | undefined> {
    return this.act(id, 'revert', principal, reply);
  }

  /** 201 with the vulnerability after the change; 304 without a body when it already is in that state (GitLab). */
  private async act(id: string, action: VulnerabilityAction, principal: Principal, reply: FastifyReply): Promise<VulnerabilityView | undefined> {
    const { vulnerability, project } = await this.authorize(id, principal, ADMIN_VULNERABILITY_LEVEL);
    const result = await this.transition.execute({ vulnerabilityId: vulnerability.id, action, actorId: principal.user.id, scope: scopeOf(project) });
    if (!result.changed) {
      reply.status(304);
      return undefined;
    }
    const finding = (await this.repository.findingsOf([result.vulnerability.id])).get(result.vulnerability.id) ?? null;
    return presentVulnerability(result.vulnerability, project, finding);
  }

  /**
   * The vulnerability of `:id` and its project, for a caller with at least `level` there:
   * 404 when it does not exist or its project is invisible to the caller (a private project
   * they are not a member of), 403 below the level, 403 on an archived project for changes.
   */
  private async authorize(rawId: string, principal: Principal, level: number): Promise<{ vulnerability: VulnerabilityEntity; project: ProjectWithNamespace }> {
    const vulnerability = await this.repository.findById(idParam(rawId, 'Vulnerability'));
    if (!vulnerability) throw DomainError.notFound('Vulnerability');
    const user = accessUserOf(principal);
    const access = await this.access.project(String(vulnerability.projectId), user);
    if (!access || !access.visible) throw DomainError.notFound('Vulnerability');
    if (access.accessLevel < level) throw DomainError.forbidden();
    if (level === ADMIN_VULNERABILITY_LEVEL && access.archived) throw DomainError.forbidden('Project is archived');
    return { vulnerability, project: projectOf(access) };
  }
}
