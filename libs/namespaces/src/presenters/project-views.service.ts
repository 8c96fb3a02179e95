import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { UsersRepository } from '@app/identity';
import { SettingsEncryption } from '@app/secrets';
import { AccessUser } from '../access/access-policy';
import { AccessService } from '../resolver/access.service';
import { ACCESS_LEVELS } from '../entities/member.entity';
import { ProjectStatisticsRepository } from '../repositories/project-statistics.repository';
import { ProjectsRepository, ProjectWithNamespace } from '../repositories/projects.repository';
import { RUNNERS_TOKEN_PURPOSE } from '../entities/project.entity';
import { presentProject, ProjectView } from './project.presenter';

export interface ProjectViewRequest {
  view: ProjectView;
  /** `statistics=true` was asked for (shown to reporters and above). */
  statistics?: boolean;
  /** Full view with the viewer's `permissions` (GitLab's `ProjectWithAccess`). */
  withPermissions?: boolean;
  runnersToken?: string;
}

/** Presents projects for a viewer, loading owners and the viewer's levels in batches. */
@Injectable()
export class ProjectViewsService {
  constructor(
    private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly access: AccessService,
    private readonly statistics: ProjectStatisticsRepository,
    private readonly projects: ProjectsRepository,
    private readonly encryption: SettingsEncryption,
  ) {}

  /** The project's runners token in clear, for maintainers and administrators; undefined when it was never kept (older projects). */
  async runnersToken(projectId: number): Promise<string | undefined> {
    const sealed = await this.projects.encryptedRunnersToken(projectId);
    return sealed === null ? undefined : this.encryption.unseal(RUNNERS_TOKEN_PURPOSE, sealed);
  }

  async presentOne(project: ProjectWithNamespace, viewer: AccessUser | null, request: ProjectViewRequest): Promise<Record<string, unknown>> {
    const [view] = await this.present([project], viewer, request);
    return view;
  }

  async present(projects: ProjectWithNamespace[], viewer: AccessUser | null, request: ProjectViewRequest): Promise<Record<string, unknown>[]> {
    if (request.view === 'simple') return projects.map((p) => presentProject(p, p.namespace, this.options(request)));
    const ownerById = await this.users.mapByIds(projects.filter((p) => p.namespace.kind === 'user').map((p) => p.namespace.ownerId!));
    const levels = viewer
      ? await this.access.projectPermissionsMany(
          projects.map((p) => p.id),
          viewer.id,
        )
      : new Map();
    const effectiveLevel = (projectId: number) => (viewer?.isAdmin ? ACCESS_LEVELS.ADMIN : (levels.get(projectId)?.accessLevel ?? 0));
    // Statistics are shown to reporters and above, on request.
    const withStatistics = request.statistics ? projects.filter((p) => effectiveLevel(p.id) >= ACCESS_LEVELS.REPORTER).map((p) => p.id) : [];
    const statistics = await this.statistics.forProjects(withStatistics);
    const statisticsShown = new Set(withStatistics);
    return projects.map((project) => {
      const level = levels.get(project.id);
      return presentProject(project, project.namespace, {
        ...this.options(request),
        owner: project.namespace.kind === 'user' ? (ownerById.get(project.namespace.ownerId!) ?? null) : null,
        permissions: request.withPermissions && viewer ? { projectAccess: level?.projectAccess ?? null, groupAccess: level?.groupAccess ?? null } : undefined,
        statistics: statisticsShown.has(project.id) ? (statistics.get(project.id) ?? true) : false,
      });
    });
  }

  private options(request: ProjectViewRequest) {
    return { externalUrl: this.config.http.externalUrl, tier: this.config.tier, view: request.view, runnersToken: request.runnersToken };
  }
}
