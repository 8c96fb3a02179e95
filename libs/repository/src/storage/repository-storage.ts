import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { GitRepository } from '../git/git-repository';

/** The branch a repository starts with when its project names none. */
export const FALLBACK_DEFAULT_BRANCH = 'main';

/**
 * Where project repositories live: `REPOSITORIES_DIR/<project id>.git`. Keyed by id, so that
 * renaming or transferring a project moves nothing on disk.
 */
@Injectable()
export class RepositoryStorage {
  private readonly initializing = new Map<number, Promise<GitRepository>>();

  constructor(private readonly config: AppConfig) {}

  pathOf(projectId: number): string {
    return join(this.config.repositoriesDir, `${projectId}.git`);
  }

  /** The project's repository, created empty on first use (projects made before repositories existed). */
  async open(project: { id: number; defaultBranch: string | null }): Promise<GitRepository> {
    const repository = new GitRepository(this.pathOf(project.id));
    if (repository.exists()) return repository;
    let pending = this.initializing.get(project.id);
    if (!pending) {
      pending = this.initIfMissing(project.id, project.defaultBranch ?? FALLBACK_DEFAULT_BRANCH).finally(() => this.initializing.delete(project.id));
      this.initializing.set(project.id, pending);
    }
    return pending;
  }

  /** A new empty repository for a new project; anything left at that path (an earlier project with the same id) is replaced. */
  async create(projectId: number, defaultBranch: string): Promise<GitRepository> {
    await mkdir(this.config.repositoriesDir, { recursive: true });
    await new GitRepository(this.pathOf(projectId)).remove();
    return GitRepository.init(this.pathOf(projectId), defaultBranch);
  }

  private async initIfMissing(projectId: number, defaultBranch: string): Promise<GitRepository> {
    const existing = new GitRepository(this.pathOf(projectId));
    if (existing.exists()) return existing;
    return this.create(projectId, defaultBranch);
  }

  async remove(projectId: number): Promise<void> {
    await new GitRepository(this.pathOf(projectId)).remove();
  }
}
