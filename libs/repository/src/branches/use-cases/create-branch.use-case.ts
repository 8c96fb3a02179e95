import { Injectable } from '@nestjs/common';
import type { ProjectWithNamespace } from '@app/namespaces';
import { ProtectedBranchesService } from '../../protected-branches/protected-branches.service';
import { GitCommandError } from '../../git/git-cli';
import { GitRepository, isValidBranchName, ZERO_SHA } from '../../git/git-repository';
import { FALLBACK_DEFAULT_BRANCH } from '../../storage/repository-storage';
import { RecordPushUseCase } from '../../push/record-push.use-case';
import { RepositoryError } from '../../errors/repository-error';
import { BranchCaller, BranchInfo } from '../branches.service';

export interface CreateBranchCommand {
  project: ProjectWithNamespace;
  repository: GitRepository;
  caller: BranchCaller & { user: { id: number; isAdmin: boolean } };
  branch: string;
  /** A commit SHA or a branch name. */
  ref: string;
}

/** GitLab's `Branches::CreateService#create_default_branch`: an empty README.md, this message. */
export const EMPTY_REPOSITORY_README_MESSAGE = 'Add README.md';

/**
 * `POST /projects/:id/repository/branches`: a new branch at `ref` (Developer+; a name covered
 * by a protected branch rule needs the right to push there), recorded as a push, with
 * GitLab's 400 messages for invalid names, unknown refs and existing branches. In an empty
 * repository the default branch is made first, as GitLab does: a commit by the caller adding an
 * empty README.md ("Add README.md"), recorded as a push like any other (events, system hooks).
 */
@Injectable()
export class CreateBranchUseCase {
  constructor(
    private readonly protectedBranches: ProtectedBranchesService,
    private readonly pushes: RecordPushUseCase,
  ) {}

  async execute(command: CreateBranchCommand): Promise<BranchInfo> {
    const { project, repository, caller, branch, ref } = command;
    if (ref !== '' && !(await repository.hasBranches())) await this.createDefaultBranch(project, repository, caller.user.id);
    if (!(await isValidBranchName(branch))) throw new RepositoryError(400, 'Branch name is invalid');
    const sha = ref === '' || ref.startsWith('-') || ref.length > 1024 || /[\x00-\x20]/.test(ref) ? null : await repository.resolveCommit(ref);
    if (!sha) throw new RepositoryError(400, `Invalid reference name: ${ref}`);
    if (await repository.refTarget(`refs/heads/${branch}`)) throw new RepositoryError(400, 'Branch already exists');
    const permissions = await this.protectedBranches.permissionsFor(project.id, branch, caller.user, caller.accessLevel);
    if (!permissions.canPush)
      throw new RepositoryError(403, permissions.protected ? 'You are not allowed to create protected branches on this project.' : '403 Forbidden');
    const branchRef = `refs/heads/${branch}`;
    await this.pushes.applyAndRecord(
      project,
      repository,
      caller.user.id,
      [{ ref: branchRef, before: ZERO_SHA, after: sha }],
      async () => {
        try {
          await repository.updateRef(branchRef, sha, ZERO_SHA, 'branch created');
        } catch (error) {
          // Created meanwhile (or a directory/file clash such as `a` and `a/b`).
          if (error instanceof GitCommandError) throw new RepositoryError(400, 'Branch already exists');
          throw error;
        }
      },
      () => repository.deleteRef(branchRef, sha),
    );
    return { name: branch, sha };
  }

  private async createDefaultBranch(project: ProjectWithNamespace, repository: GitRepository, userId: number): Promise<void> {
    const branch = project.defaultBranch ?? (await repository.headBranch()) ?? FALLBACK_DEFAULT_BRANCH;
    const author = await this.pushes.pusher(userId);
    const identity = { name: author.name || author.username, email: author.email };
    const tree = await repository.writeTree([{ name: 'README.md', blob: await repository.writeBlob('') }]);
    const commit = await repository.commitTree(tree, [], EMPTY_REPOSITORY_README_MESSAGE, identity);
    const branchRef = `refs/heads/${branch}`;
    try {
      await this.pushes.applyAndRecord(
        project,
        repository,
        userId,
        [{ ref: branchRef, before: ZERO_SHA, after: commit }],
        () => repository.updateRef(branchRef, commit, ZERO_SHA, 'README.md added to an empty repository'),
        () => repository.deleteRef(branchRef, commit),
      );
    } catch (error) {
      // A push made the branch meanwhile (nothing was moved or recorded): the repository is no longer empty.
      if (!(error instanceof GitCommandError)) throw error;
    }
  }
}
