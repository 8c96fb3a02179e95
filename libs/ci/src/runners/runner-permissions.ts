import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import type { Principal } from '@app/api';
import { ACCESS_LEVELS, AccessService, accessUserOf, GroupsRepository, ProjectsRepository } from '@app/namespaces';
import type { CiRunnerEntity } from '../entities/ci-runner.entity';
import { RunnersRepository } from './runners.repository';

/**
 * Who manages runners, as GitLab: administrators every runner (and alone instance runners),
 * group owners their group's runners, project maintainers the runners of their projects.
 */
@Injectable()
export class RunnerPermissions {
  constructor(
    private readonly access: AccessService,
    private readonly projects: ProjectsRepository,
    private readonly groups: GroupsRepository,
    private readonly runners: RunnersRepository,
  ) {}

  /** Checks that the principal may create a runner of this kind there; 403 / 404 otherwise. */
  async checkCreate(
    principal: Principal,
    kind: string,
    groupId: number | undefined,
    projectId: number | undefined,
  ): Promise<{ groupId: number | null; projectId: number | null }> {
    if (kind === 'instance_type') {
      if (!principal.user.isAdmin) throw DomainError.forbidden();
      return { groupId: null, projectId: null };
    }
    if (kind === 'group_type') {
      if (groupId === undefined) throw DomainError.invalid({ group_id: ['is missing'] });
      const group = await this.groups.findById(groupId);
      if (!group || group.kind !== 'group') throw DomainError.forbidden();
      if ((await this.access.groupAccessLevel(group, accessUserOf(principal))) < ACCESS_LEVELS.OWNER) throw DomainError.forbidden();
      return { groupId: group.id, projectId: null };
    }
    if (projectId === undefined) throw DomainError.invalid({ project_id: ['is missing'] });
    const project = await this.projects.findById(projectId);
    if (!project || (await this.access.projectAccessLevel(project, accessUserOf(principal))) < ACCESS_LEVELS.MAINTAINER) throw DomainError.forbidden();
    return { groupId: null, projectId: project.id };
  }

  async canManage(principal: Principal, runner: CiRunnerEntity): Promise<boolean> {
    if (principal.user.isAdmin) return true;
    if (runner.runnerType === 'instance_type') return false;
    if (runner.runnerType === 'group_type') {
      const group = runner.groupId ? await this.groups.findById(runner.groupId) : null;
      return group !== null && (await this.access.groupAccessLevel(group, accessUserOf(principal))) >= ACCESS_LEVELS.OWNER;
    }
    for (const projectId of await this.runners.projectIds(runner.id)) {
      const project = await this.projects.findById(projectId);
      if (project && (await this.access.projectAccessLevel(project, accessUserOf(principal))) >= ACCESS_LEVELS.MAINTAINER) return true;
    }
    return false;
  }
}
