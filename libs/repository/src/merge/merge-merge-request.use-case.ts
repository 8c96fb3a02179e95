import { Inject, Injectable, Optional } from '@nestjs/common';
import { DomainError } from '@app/api';
import { ISSUES_EVENTS, MERGE_REQUEST_APPROVALS, MergeRequestApprovals, MergeRequestEntity, mergeRequestEvent, MergeRequestsRepository } from '@app/issues';
import { OutboxService } from '@app/messaging';
import type { ProjectWithNamespace } from '@app/namespaces';
import { pathWithNamespace } from '@app/namespaces';
import { ProtectedBranchesService } from '../protected-branches/protected-branches.service';
import { GitCommandError } from '../git/git-cli';
import { GitIdentity, GitRepository, RefUpdate, ZERO_SHA } from '../git/git-repository';
import { RecordPushUseCase } from '../push/record-push.use-case';
import { RepositoryError } from '../errors/repository-error';
import { RepositoryStorage } from '../storage/repository-storage';

export interface MergeMergeRequestCommand {
  project: ProjectWithNamespace;
  user: { id: number; isAdmin: boolean };
  accessLevel: number;
  iid: number;
  mergeCommitMessage?: string;
  squashCommitMessage?: string;
  squash?: boolean;
  shouldRemoveSourceBranch?: boolean;
  /** The source head the caller saw; 409 when the branch moved since. */
  sha?: string;
}

export const CANNOT_BE_MERGED = 'Branch cannot be merged';
const DRAFT = /^(\[draft\]|\(draft\)|draft:|draft\s-\s)/i;

/**
 * `PUT /projects/:id/merge_requests/:iid/merge` with the project's merge method, in git
 * plumbing only (no working copy): `merge` writes a merge commit when `git merge-tree` finds no
 * conflict; `rebase_merge` writes a merge commit only when the target is an ancestor of the
 * source (a fast-forward is possible); `ff` moves the target to the source head. `squash` first
 * makes one commit with the source tree on top of the merge base. The target ref moves with a
 * compare-and-swap; the merge request's state, `merge_request.merged` and the push of the target
 * branch are committed in one transaction. Errors as GitLab: 405 (not open, draft), 401 (not
 * allowed to merge into the target), 406 (cannot be merged), 409 (sha mismatch); 405 also while approval rules still need approvals.
 */
@Injectable()
export class MergeMergeRequestUseCase {
  constructor(
    private readonly mergeRequests: MergeRequestsRepository,
    private readonly outbox: OutboxService,
    private readonly storage: RepositoryStorage,
    private readonly protectedBranches: ProtectedBranchesService,
    private readonly pushes: RecordPushUseCase,
    @Optional() @Inject(MERGE_REQUEST_APPROVALS) private readonly approvals?: MergeRequestApprovals,
  ) {}

  async execute(command: MergeMergeRequestCommand): Promise<MergeRequestEntity> {
    const { project, user } = command;
    const mr = await this.mergeRequests.findByIid(project.id, command.iid);
    if (!mr) throw DomainError.notFound('Merge Request');
    if (mr.state !== 'opened' || DRAFT.test(mr.title)) throw new RepositoryError(405, '405 Method Not Allowed');
    const permissions = await this.protectedBranches.permissionsFor(project.id, mr.targetBranch, user, command.accessLevel);
    if (project.archived) throw DomainError.forbidden();
    if (!permissions.canMerge) throw DomainError.unauthorized();
    // Approval rules that still need approvals block the merge as GitLab's `mergeable?` does.
    if (this.approvals && (await this.approvals.unapproved([mr])).has(mr.id)) throw new RepositoryError(405, '405 Method Not Allowed');

    const repository = await this.storage.open(project);
    const source = await repository.refTarget(`refs/heads/${mr.sourceBranch}`);
    const target = await repository.refTarget(`refs/heads/${mr.targetBranch}`);
    if (!source || !target) throw new RepositoryError(406, CANNOT_BE_MERGED);
    if (command.sha !== undefined && command.sha !== source) throw new RepositoryError(409, `SHA does not match HEAD of source branch: ${source}`);

    const merger = await this.pushes.pusher(user.id);
    const identity: GitIdentity = { name: merger.name || merger.username, email: merger.email };
    const fastForwardPossible = await repository.isAncestor(target, source);
    if ((project.mergeMethod === 'ff' || project.mergeMethod === 'rebase_merge') && !fastForwardPossible) throw new RepositoryError(406, CANNOT_BE_MERGED);

    // The diff refs as of the merge, kept on the merge request (the source branch may go).
    const base = (await repository.mergeBase(target, source)) ?? target;
    let head = source;
    let squashSha: string | null = null;
    if (command.squash) {
      const [author] = await repository.commits([source]);
      const message = command.squashCommitMessage ?? `${mr.title}\n`;
      squashSha = await repository.commitTree(
        await repository.treeOf(source),
        [base],
        message,
        author ? { name: author.authorName, email: author.authorEmail } : identity,
        identity,
      );
      head = squashSha;
    }

    let newTarget: string;
    if (project.mergeMethod === 'ff') {
      newTarget = head;
    } else {
      const tree = fastForwardPossible ? await repository.treeOf(head) : await repository.mergeTree(target, head);
      if (!tree) throw new RepositoryError(406, CANNOT_BE_MERGED);
      const message = command.mergeCommitMessage ?? defaultMergeMessage(mr, project);
      newTarget = await repository.commitTree(tree, [target, head], message, identity);
    }

    // The merge request is locked while the target moves (compare-and-swap), so two merges of
    // it cannot both succeed; when anything fails after the move, the target is put back.
    const targetRef = `refs/heads/${mr.targetBranch}`;
    let merged: MergeRequestEntity | undefined;
    await this.pushes.applyAndRecord(
      project,
      repository,
      user.id,
      [{ ref: targetRef, before: target, after: newTarget }],
      async () => {
        try {
          await repository.updateRef(targetRef, newTarget, target, `merge request !${mr.iid}`);
        } catch (error) {
          if (error instanceof GitCommandError) throw new RepositoryError(409, 'The target branch changed during the merge; try again');
          throw error;
        }
      },
      () => repository.updateRef(targetRef, target, newTarget, 'merge rolled back'),
      async (tx) => {
        const locked = await this.mergeRequests.lockById(tx, mr.id);
        if (!locked || locked.state !== 'opened') throw new RepositoryError(405, '405 Method Not Allowed');
        // Checked again under the lock: an approval withdrawn while the merge was prepared still blocks it.
        if (this.approvals && (await this.approvals.unapproved([locked], tx)).has(locked.id)) throw new RepositoryError(405, '405 Method Not Allowed');
        locked.state = 'merged';
        locked.mergedById = user.id;
        locked.mergedAt = new Date();
        locked.mergeCommitSha = newTarget;
        locked.squashCommitSha = squashSha;
        locked.diffHeadSha = source;
        locked.diffBaseSha = base;
        locked.diffStartSha = target;
        merged = await this.mergeRequests.save(tx, locked);
        const groupId = project.namespace.kind === 'group' ? project.namespace.id : null;
        await this.outbox.append(
          tx,
          mergeRequestEvent(ISSUES_EVENTS.MERGE_REQUEST_MERGED, user.id, merged, groupId, {
            state: 'merged',
            merge_commit_sha: newTarget,
            squash_commit_sha: squashSha,
          }),
        );
      },
    );
    if (command.shouldRemoveSourceBranch) await this.removeSource(command, repository, mr.sourceBranch, source);
    return merged!;
  }

  /** `should_remove_source_branch`: only an unprotected, non-default branch that did not move meanwhile. */
  private async removeSource(command: MergeMergeRequestCommand, repository: GitRepository, branch: string, sha: string): Promise<void> {
    const { project, user } = command;
    if (branch === project.defaultBranch) return;
    const permissions = await this.protectedBranches.permissionsFor(project.id, branch, user, command.accessLevel);
    if (permissions.protected || !permissions.canPush) return;
    try {
      await repository.deleteRef(`refs/heads/${branch}`, sha);
    } catch (error) {
      if (error instanceof GitCommandError) return;
      throw error;
    }
    const update: RefUpdate = { ref: `refs/heads/${branch}`, before: sha, after: ZERO_SHA };
    await this.pushes.record(project, repository, user.id, [update]);
  }
}

/** GitLab's default merge commit message. */
function defaultMergeMessage(mr: MergeRequestEntity, project: ProjectWithNamespace): string {
  return `Merge branch '${mr.sourceBranch}' into '${mr.targetBranch}'\n\n${mr.title}\n\nSee merge request ${pathWithNamespace(project, project.namespace)}!${mr.iid}\n`;
}
