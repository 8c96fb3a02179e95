import { Injectable, Logger } from '@nestjs/common';
import { ACCESS_LEVELS } from '@app/namespaces';
import type { ProjectWithNamespace } from '@app/namespaces';
import { BranchPermissions } from '../protected-branches/branch-permissions';
import { ProtectedBranchesService } from '../protected-branches/protected-branches.service';
import { GitRepository, RefUpdate, ZERO_SHA } from '../git/git-repository';
import { RecordPushUseCase } from '../push/record-push.use-case';
import { HookDecision, PushHandler, QuarantineEnvironment } from './receive-hooks';

/** Refusal messages of a push, as the git client shows them (`remote: ...`). */
export const PUSH_MESSAGES = {
  pushProtected: 'You are not allowed to push code to protected branches on this project.',
  createProtected: 'You are not allowed to create protected branches on this project.',
  deleteProtected: 'You can only delete protected branches using the web interface.',
  forcePushProtected: 'You are not allowed to force push code to a protected branch on this project.',
  deleteDefault: 'The default branch of a project cannot be deleted.',
  changeTag: 'You are not allowed to change existing tags on this project.',
  otherRef: 'You are not allowed to push to this ref.',
} as const;

export interface Pushing {
  project: ProjectWithNamespace;
  repository: GitRepository;
  user: { id: number; isAdmin: boolean };
  accessLevel: number;
}

/**
 * The rules of one push, checked per ref update in the pre-receive hook (objects still in
 * quarantine; any refusal rejects the whole push and nothing changes):
 * - only branches and tags may be pushed;
 * - a protected branch needs `canPush` to be created or updated, and `canForcePush` for a
 *   non-fast-forward update; it cannot be deleted by a push (only through the API);
 * - the default branch cannot be deleted;
 * - an existing tag can be moved or deleted by Maintainers only.
 */
@Injectable()
export class PushPolicy {
  private readonly logger = new Logger(PushPolicy.name);

  constructor(
    private readonly protectedBranches: ProtectedBranchesService,
    private readonly recorder: RecordPushUseCase,
  ) {}

  handlerFor(pushing: Pushing): PushHandler {
    return {
      preReceive: (updates, quarantine) => this.check(pushing, updates, quarantine),
      postReceive: (updates) => this.record(pushing, updates),
    };
  }

  async check(pushing: Pushing, updates: RefUpdate[], quarantine: QuarantineEnvironment): Promise<HookDecision> {
    const { project, repository, user, accessLevel } = pushing;
    for (const update of updates) {
      const created = update.before === ZERO_SHA;
      const deleted = update.after === ZERO_SHA;
      if (update.ref.startsWith('refs/tags/')) {
        if (!created && accessLevel < ACCESS_LEVELS.MAINTAINER) return refuse(PUSH_MESSAGES.changeTag);
        continue;
      }
      if (!update.ref.startsWith('refs/heads/')) return refuse(PUSH_MESSAGES.otherRef);
      const branch = update.ref.slice('refs/heads/'.length);
      if (deleted && branch === project.defaultBranch) return refuse(PUSH_MESSAGES.deleteDefault);
      const permissions: BranchPermissions = await this.protectedBranches.permissionsFor(project.id, branch, user, accessLevel);
      if (!permissions.protected) continue;
      if (deleted) return refuse(PUSH_MESSAGES.deleteProtected);
      if (!permissions.canPush) return refuse(created ? PUSH_MESSAGES.createProtected : PUSH_MESSAGES.pushProtected);
      if (!created && !permissions.canForcePush) {
        const fastForward = await repository.isAncestor(update.before, update.after, { env: { ...quarantine } });
        if (!fastForward) return refuse(PUSH_MESSAGES.forcePushProtected);
      }
    }
    return { ok: true };
  }

  /** Records what moved; retried a few times, as the refs have already changed. */
  private async record(pushing: Pushing, updates: RefUpdate[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.recorder.record(pushing.project, pushing.repository, pushing.user.id, updates);
        return;
      } catch (error) {
        if (attempt >= 3) {
          this.logger.error({ err: error, projectId: pushing.project.id }, 'push events not recorded');
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  }
}

const refuse = (message: string): HookDecision => ({ ok: false, message });
