import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { ACCESS_LEVELS } from '@app/namespaces';
import type { ProjectWithNamespace } from '@app/namespaces';
import { ProtectedBranchesService } from '../../protected-branches/protected-branches.service';
import { GitCommandError } from '../../git/git-cli';
import { GitRepository, isValidBranchName, RefUpdate, ZERO_SHA } from '../../git/git-repository';
import { RecordPushUseCase } from '../../push/record-push.use-case';
import { RepositoryError } from '../../errors/repository-error';
import { BranchCaller, BranchesService } from '../branches.service';

export interface DeleteBranchCommand {
  project: ProjectWithNamespace;
  repository: GitRepository;
  caller: BranchCaller & { user: { id: number; isAdmin: boolean } };
  branch: string;
}

/**
 * `DELETE /projects/:id/repository/branches/:branch` (Developer+): 404 for an unknown branch,
 * 405 `Cannot remove HEAD branch` for the default one; a protected branch is removed only by
 * someone allowed to push to it who is a Maintainer (GitLab's `delete_protected_branch`),
 * otherwise 405 `Protected branch cant be removed`. Recorded as a push.
 */
@Injectable()
export class DeleteBranchUseCase {
  constructor(
    private readonly protectedBranches: ProtectedBranchesService,
    private readonly pushes: RecordPushUseCase,
  ) {}

  async execute(command: DeleteBranchCommand): Promise<void> {
    const { project, repository, caller, branch } = command;
    const sha = (await isValidBranchName(branch)) ? await repository.resolveCommit(`refs/heads/${branch}`) : null;
    if (!sha) throw DomainError.notFound('Branch');
    if (branch === project.defaultBranch) throw new RepositoryError(405, 'Cannot remove HEAD branch');
    const permissions = await this.protectedBranches.permissionsFor(project.id, branch, caller.user, caller.accessLevel);
    if (permissions.protected && !(permissions.canPush && caller.accessLevel >= ACCESS_LEVELS.MAINTAINER))
      throw new RepositoryError(405, 'Protected branch cant be removed');
    if (!permissions.canPush) throw DomainError.forbidden();
    const ref = `refs/heads/${branch}`;
    await this.pushes.applyAndRecord(
      project,
      repository,
      caller.user.id,
      [{ ref, before: sha, after: ZERO_SHA }],
      async () => {
        try {
          await repository.deleteRef(ref, sha);
        } catch (error) {
          if (error instanceof GitCommandError) throw DomainError.notFound('Branch');
          throw error;
        }
      },
      () => repository.updateRef(ref, sha, ZERO_SHA, 'branch deletion rolled back'),
    );
  }
}

/**
 * `DELETE /projects/:id/repository/merged_branches` (Developer+): removes every branch merged
 * into the default branch, except the default branch and protected branches; one push records
 * the deletions.
 */
@Injectable()
export class DeleteMergedBranchesUseCase {
  constructor(
    private readonly branches: BranchesService,
    private readonly protectedBranches: ProtectedBranchesService,
    private readonly pushes: RecordPushUseCase,
  ) {}

  async execute(command: Omit<DeleteBranchCommand, 'branch'>): Promise<string[]> {
    const { project, repository, caller } = command;
    const merged = [...(await this.branches.mergedNames(project, repository))];
    if (merged.length === 0) return [];
    const permissions = await this.protectedBranches.permissionsForMany(project.id, merged, caller.user, caller.accessLevel);
    const current = await repository.branches();
    const deleted: RefUpdate[] = [];
    for (const name of merged) {
      const sha = current.get(name);
      if (!sha || name === project.defaultBranch || permissions.get(name)?.protected) continue;
      try {
        await repository.deleteRef(`refs/heads/${name}`, sha);
        deleted.push({ ref: `refs/heads/${name}`, before: sha, after: ZERO_SHA });
      } catch (error) {
        // Moved meanwhile: it is no longer the merged branch that was listed.
        if (!(error instanceof GitCommandError)) throw error;
      }
    }
    await this.pushes.record(project, repository, caller.user.id, deleted);
    return deleted.map((d) => d.ref.slice('refs/heads/'.length));
  }
}
