import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { OutboxService } from '@app/messaging';
import type { ProjectWithNamespace } from '@app/namespaces';
import { DataSource, EntityManager } from 'typeorm';
import { ProtectedBranchesService } from '../protected-branches/protected-branches.service';
import { GitRepository, RefUpdate, ZERO_SHA } from '../git/git-repository';
import { LanguagesService } from '../languages/languages.service';
import { buildPushEvents, Pusher } from '../events/repository.events';
import { PushesRepository } from './pushes.repository';

/**
 * Records accepted ref updates (git push, branch API, merges): their domain events through
 * the outbox, the project's `last_activity_at`, the default branch of a first push and, when an
 * update creates the default branch, its protection (`default_branch_protection`, as GitLab
 * does), in one transaction. Then refreshes the language statistics when the default branch moved.
 */
@Injectable()
export class RecordPushUseCase {
  private readonly logger = new Logger(RecordPushUseCase.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly outbox: OutboxService,
    private readonly languages: LanguagesService,
    private readonly protectedBranches: ProtectedBranchesService,
    private readonly pushes: PushesRepository,
  ) {}

  /** The user who pushed, as push events show them. */
  pusher(userId: number, manager?: EntityManager): Promise<Pusher> {
    return this.pushes.pusher(userId, manager);
  }

  /** Records `updates` (already applied to the repository). Pass `manager` to join an open transaction. */
  async record(project: ProjectWithNamespace, repository: GitRepository, pusherId: number, updates: RefUpdate[], manager?: EntityManager): Promise<void> {
    if (updates.length === 0) return;
    const defaultBranch = await this.defaultBranchAfter(project, repository, updates);
    const current = { ...project, defaultBranch } as ProjectWithNamespace;
    const run = async (tx: EntityManager) => {
      const events = await buildPushEvents(repository, current, await this.pusher(pusherId, tx), updates, this.config.http.externalUrl);
      await this.outbox.append(tx, events);
      await this.pushes.recordActivity(tx, project.id, defaultBranch);
      // The default branch is protected when it comes into existence, not before: the push that
      // creates it was checked without this rule (pre-receive), later ones are checked with it.
      if (defaultBranch && createsBranch(updates, defaultBranch)) await this.protectedBranches.protectDefaultBranch(tx, current, defaultBranch, pusherId);
    };
    if (manager) await run(manager);
    else await this.dataSource.transaction(run);
    project.defaultBranch = defaultBranch;
    if (defaultBranch && updates.some((u) => u.ref === `refs/heads/${defaultBranch}`)) {
      void this.languages
        .refresh(project, repository)
        .catch((error: unknown) => this.logger.warn({ err: error, projectId: project.id }, 'language statistics not refreshed'));
    }
  }

  /**
   * For ref moves made by the service itself (branch API, merges): `apply` moves the refs inside
   * the transaction that records them; when anything fails afterwards (events, commit),
   * `revert` puts them back, so refs and events change together.
   */
  async applyAndRecord(
    project: ProjectWithNamespace,
    repository: GitRepository,
    pusherId: number,
    updates: RefUpdate[],
    apply: () => Promise<void>,
    revert: () => Promise<void>,
    inTransaction: (tx: EntityManager) => Promise<void> = async () => undefined,
  ): Promise<void> {
    let applied = false;
    try {
      await this.dataSource.transaction(async (tx) => {
        await inTransaction(tx);
        await apply();
        applied = true;
        await this.record(project, repository, pusherId, updates, tx);
      });
    } catch (error) {
      if (applied) await revert().catch((revertError: unknown) => this.logger.error({ err: revertError, projectId: project.id }, 'ref move not reverted'));
      throw error;
    }
  }

  /** A project whose default branch does not exist takes the first branch a push creates (as GitLab does). */
  private async defaultBranchAfter(project: ProjectWithNamespace, repository: GitRepository, updates: RefUpdate[]): Promise<string | null> {
    const current = project.defaultBranch;
    if (current && (await repository.refTarget(`refs/heads/${current}`))) return current;
    const creations = updates.filter((u) => u.ref.startsWith('refs/heads/') && u.before === ZERO_SHA && u.after !== ZERO_SHA);
    if (creations.length === 0) return current;
    // The configured name wins when the push creates it, else the first branch created.
    const branch = current && createsBranch(creations, current) ? current : creations[0].ref.slice('refs/heads/'.length);
    await repository.setHeadBranch(branch);
    return branch;
  }
}

/** Whether `updates` create `refs/heads/<branch>`. */
const createsBranch = (updates: readonly RefUpdate[], branch: string): boolean =>
  updates.some((u) => u.ref === `refs/heads/${branch}` && u.before === ZERO_SHA && u.after !== ZERO_SHA);
