import { Injectable } from '@nestjs/common';
import type { ProjectWithNamespace } from '@app/namespaces';
import { ProtectedBranchesService } from '../../protected-branches';
import { GitCommandError } from '../../git/git-cli';
import { GitRepository, isValidBranchName, ZERO_SHA } from '../../git/git-repository';
import { RecordPushUseCase } from '../../push/record-push.use-case';
import { RepositoryError } from '../../repository-error';
import { BranchCaller, BranchInfo } from '../branches.service';

export interface CreateBranchCommand {
  project: ProjectWithNamespace;
  repository: GitRepository;
  caller: BranchCaller & { user: { id: number; isAdmin: boolean } };
  branch: string;
  /** A commit SHA or a branch name. */
  ref: string;
}

/**
 * `POST /projects/:id/repository/branches`: a new branch at `ref` (Developer+; a name covered
 * by a protected branch rule needs the right to push there), recorded as a push, with
 * GitLab's 400 messages for invalid names, unknown refs and existing branches.
 */
@Injectable()
export class CreateBranchUseCase {
  constructor(
    private readonly protectedBranches: ProtectedBranchesService,
    private readonly pushes: RecordPushUseCase,
  ) {}

  async execute(command: CreateBranchCommand): Promise<BranchInfo> {
    const { project, repository, caller, branch, ref } = command;
    if (!(await isValidBranchName(branch))) throw new RepositoryError(400, 'Branch name is invalid');
    const sha = ref === '' || ref.startsWith('-') || ref.length > 1024 || /[\x00-\x20]/.test(ref) ? null : await repository.resolveCommit(ref);
    if (!sha) throw new RepositoryError(400, `Invalid reference name: ${ref}`);
    if (await repository.refTarget(`refs/heads/${branch}`)) throw new RepositoryError(400, 'Branch already exists');
    const permissions = await this.protectedBranches.permissionsFor(project.id, branch, caller.user, caller.accessLevel);
    if (!permissions.canPush) throw new RepositoryError(403, permissions.protected ? 'You are not allowed to create protected branches on this project.' : '403 Forbidden');
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
}
