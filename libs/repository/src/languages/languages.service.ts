import { Injectable } from '@nestjs/common';
import { GitRepository } from '../git/git-repository';
import { LanguageDetector } from './language-detector';
import { ProjectLanguagesRepository } from './project-languages.repository';

interface ProjectRef {
  id: number;
  defaultBranch: string | null;
}

/** Language percentages of a project's default branch, cached per commit in `project_languages`. */
@Injectable()
export class LanguagesService {
  constructor(private readonly cache: ProjectLanguagesRepository) {}

  /** The statistics of the default branch's current commit (computed when the cache is for another commit). */
  async languagesOf(project: ProjectRef, repository: GitRepository): Promise<Record<string, number>> {
    const head = project.defaultBranch ? await repository.resolveCommit(`refs/heads/${project.defaultBranch}`) : null;
    if (!head) return {};
    const cached = await this.cache.cached(project.id);
    // jsonb keeps no key order: largest share first again.
    if (cached?.commit_sha === head) return Object.fromEntries(Object.entries(cached.languages).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
    return this.compute(project.id, repository, head);
  }

  /** Recomputes after a push to the default branch. */
  async refresh(project: ProjectRef, repository: GitRepository): Promise<void> {
    await this.languagesOf(project, repository);
  }

  private async compute(projectId: number, repository: GitRepository, commit: string): Promise<Record<string, number>> {
    const entries = await repository.lsTree(commit);
    const languages = LanguageDetector.instance().percentages(entries.filter((e) => e.type === 'blob' && e.mode !== '120000'));
    await this.cache.save(projectId, commit, languages);
    return languages;
  }
}
