import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '@app/api';
import type { ProjectRepositoryLifecycle, ProjectWithNamespace } from '@app/namespaces';
import { SettingsReader } from '@app/settings';
import { EntityManager } from 'typeorm';
import { isValidBranchName, ZERO_SHA } from './git/git-repository';
import { RecordPushUseCase } from './push/record-push.use-case';
import { FALLBACK_DEFAULT_BRANCH, RepositoryStorage } from './storage/repository-storage';

/** The README of `initialize_with_readme`. */
export const readmeContent = (name: string, description: string | null): string => (description ? `# ${name}\n\n${description}\n` : `# ${name}\n`);

/**
 * Creates a project's bare repository with the project (and, with `initialize_with_readme`,
 * the default branch with a first commit adding README.md, authored by the creator, recorded
 * as a push), and removes it with the project.
 */
@Injectable()
export class ProjectRepositories implements ProjectRepositoryLifecycle {
  private readonly logger = new Logger(ProjectRepositories.name);

  constructor(
    private readonly storage: RepositoryStorage,
    private readonly settings: SettingsReader,
    private readonly pushes: RecordPushUseCase,
  ) {}

  async created(tx: EntityManager, project: ProjectWithNamespace, options: { actorId: number; initializeWithReadme: boolean }): Promise<void> {
    const branch = project.defaultBranch ?? (await this.settings.get()).string('default_branch_name') ?? FALLBACK_DEFAULT_BRANCH;
    if (!(await isValidBranchName(branch))) throw DomainError.invalid({ default_branch: ['is invalid'] });
    const repository = await this.storage.create(project.id, branch);
    try {
      if (!options.initializeWithReadme) return;
      const author = await this.pushes.pusher(options.actorId, tx);
      const identity = { name: author.name || author.username, email: author.email };
      const blob = await repository.writeBlob(readmeContent(project.name, project.description));
      const tree = await repository.writeTree([{ name: 'README.md', blob }]);
      const commit = await repository.commitTree(tree, [], 'Initial commit\n', identity);
      await repository.updateRef(`refs/heads/${branch}`, commit, ZERO_SHA, 'initialize with README');
      project.defaultBranch = branch;
      await this.pushes.record(project, repository, options.actorId, [{ ref: `refs/heads/${branch}`, before: ZERO_SHA, after: commit }], tx);
    } catch (error) {
      await repository.remove().catch(() => undefined);
      throw error;
    }
  }

  async removed(projectId: number): Promise<void> {
    await this.storage.remove(projectId).catch((error: unknown) => this.logger.warn({ err: error, projectId }, 'repository not removed'));
  }
}
