import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { pathWithNamespace } from '@app/namespaces';
import type { ProjectWithNamespace } from '@app/namespaces';
import { BranchPermissions } from '../protected-branches/branch-permissions';
import { ProtectedBranchesService } from '../protected-branches/protected-branches.service';
import { GitCommit, GitRepository } from '../git/git-repository';
import { RepositoryStorage } from '../storage/repository-storage';

export interface BranchCaller {
  user: { id: number; isAdmin: boolean } | null;
  accessLevel: number;
}

export interface BranchInfo {
  name: string;
  sha: string;
}

/** `search` of the branch list: `^term` prefix, `term$` suffix, otherwise contains (case-insensitive). */
export function branchSearchMatcher(search: string | undefined): (name: string) => boolean {
  if (!search) return () => true;
  const lower = search.toLowerCase();
  if (lower.startsWith('^') && lower.endsWith('$') && lower.length > 1) return (name) => name.toLowerCase() === lower.slice(1, -1);
  if (lower.startsWith('^')) return (name) => name.toLowerCase().startsWith(lower.slice(1));
  if (lower.endsWith('$')) return (name) => name.toLowerCase().endsWith(lower.slice(0, -1));
  return (name) => name.toLowerCase().includes(lower);
}

/** GitLab's `trailers` (last value per key) and `extended_trailers` (every value per key). */
function trailersOf(commit: GitCommit): { trailers: Record<string, string>; extended_trailers: Record<string, string[]> } {
  const trailers: Record<string, string> = {};
  const extended: Record<string, string[]> = {};
  for (const [key, value] of commit.trailers) {
    trailers[key] = value;
    (extended[key] ??= []).push(value);
  }
  return { trailers, extended_trailers: extended };
}

/** The commit object of branch records and merge results. */
export function presentCommit(commit: GitCommit, projectWebUrl: string): Record<string, unknown> {
  return {
    id: commit.id,
    short_id: commit.id.slice(0, 8),
    created_at: commit.committedDate,
    parent_ids: commit.parentIds,
    title: commit.title,
    message: commit.message,
    author_name: commit.authorName,
    author_email: commit.authorEmail,
    authored_date: commit.authoredDate,
    committer_name: commit.committerName,
    committer_email: commit.committerEmail,
    committed_date: commit.committedDate,
    ...trailersOf(commit),
    web_url: `${projectWebUrl}/-/commit/${commit.id}`,
  };
}

/** Branch records (`GET /projects/:id/repository/branches`) with the caller's permissions. */
@Injectable()
export class BranchesService {
  constructor(
    private readonly config: AppConfig,
    private readonly storage: RepositoryStorage,
    private readonly protectedBranches: ProtectedBranchesService,
  ) {}

  repository(project: ProjectWithNamespace): Promise<GitRepository> {
    return this.storage.open(project);
  }

  /** Branches matching `search`, alphabetical. */
  async list(repository: GitRepository, search?: string): Promise<BranchInfo[]> {
    const matches = branchSearchMatcher(search);
    const branches = await repository.branches();
    return [...branches.entries()]
      .filter(([name]) => matches(name))
      .map(([name, sha]) => ({ name, sha }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async present(project: ProjectWithNamespace, repository: GitRepository, branches: BranchInfo[], caller: BranchCaller): Promise<Record<string, unknown>[]> {
    if (branches.length === 0) return [];
    const webUrl = `${this.config.http.externalUrl}/${pathWithNamespace(project, project.namespace)}`;
    const [commits, merged, permissions] = await Promise.all([
      repository.commits(branches.map((b) => b.sha)),
      this.mergedNames(project, repository),
      this.protectedBranches.permissionsForMany(
        project.id,
        branches.map((b) => b.name),
        caller.user,
        caller.accessLevel,
      ),
    ]);
    const bySha = new Map(commits.map((c) => [c.id, c]));
    return branches.map((branch) => {
      const p: BranchPermissions | undefined = permissions.get(branch.name);
      const commit = bySha.get(branch.sha);
      return {
        name: branch.name,
        merged: merged.has(branch.name),
        protected: p?.protected ?? false,
        default: branch.name === project.defaultBranch,
        developers_can_push: p?.developersCanPush ?? false,
        developers_can_merge: p?.developersCanMerge ?? false,
        can_push: p?.canPush ?? false,
        web_url: `${webUrl}/-/tree/${branch.name}`,
        commit: commit ? presentCommit(commit, webUrl) : null,
      };
    });
  }

  /** Branches (other than the default) whose head is reachable from the default branch. */
  async mergedNames(project: ProjectWithNamespace, repository: GitRepository): Promise<Set<string>> {
    const target = project.defaultBranch;
    if (!target || !(await repository.refTarget(`refs/heads/${target}`))) return new Set();
    const out = (await repository.git(['for-each-ref', `--merged=refs/heads/${target}`, '--format=%(refname)', 'refs/heads/'])).stdout.toString('utf8');
    return new Set(
      out
        .split('\n')
        .filter(Boolean)
        .map((ref) => ref.replace(/^refs\/heads\//, ''))
        .filter((name) => name !== target),
    );
  }
}
