import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import type { ProjectWithNamespace } from '@app/namespaces';
import { BadgeRenderContext, usesPlaceholder } from './core/badge-urls';
import { BadgeCommitReader } from './commit-reader';

/** Builds the placeholder values of a project; git is asked only when a URL needs it. */
@Injectable()
export class BadgeContextService {
  constructor(
    private readonly config: AppConfig,
    private readonly commits: BadgeCommitReader,
  ) {}

  private get serverHost(): string {
    try {
      return new URL(this.config.http.externalUrl).hostname;
    } catch {
      return '';
    }
  }

  async forProject(project: ProjectWithNamespace, urls: readonly string[]): Promise<BadgeRenderContext> {
    const uses = (name: string): boolean => urls.some((url) => usesPlaceholder(url, name));
    const fullPath = `${project.namespace.fullPath}/${project.path}`;
    const [commitSha, latestTag] = await Promise.all([
      uses('commit_sha') ? this.commits.branchHead(project.id, project.defaultBranch) : Promise.resolve(''),
      uses('latest_tag') ? this.commits.latestTag(project.id) : Promise.resolve(''),
    ]);
    return {
      projectPath: fullPath,
      projectTitle: project.name,
      projectName: project.path,
      projectId: project.id,
      projectNamespace: fullPath,
      groupName: project.namespace.kind === 'group' ? project.namespace.fullPath : '',
      gitlabServer: this.serverHost,
      gitlabPagesDomain: '',
      defaultBranch: project.defaultBranch ?? '',
      commitSha,
      latestTag,
    };
  }
}
