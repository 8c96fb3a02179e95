import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import { CiRunnerEntity, CiRunnerProjectEntity, CiRunnerType } from '../entities/ci-runner.entity';
import { digestSecret } from '../entities/runner-tokens';

export interface RunnerListFilter {
  type?: CiRunnerType;
  paused?: boolean;
  status?: string;
  tagList?: string[];
}

/** Whether the stored runner info says the same as the one just sent (jsonb does not keep key order). */
function sameInfo(stored: unknown, sent: Record<string, string>): boolean {
  if (!stored || typeof stored !== 'object') return false;
  const before = stored as Record<string, unknown>;
  const keys = Object.keys(sent);
  return keys.length === Object.keys(before).length && keys.every((key) => before[key] === sent[key]);
}

/**
 * How long a runner read for its long polls is reused: an idle runner's poll then costs no
 * statement at all. A change made through this process applies at once; one made through another
 * applies to the claims at once (they check the runner in the database) and to the rest (tags,
 * scope, a deleted runner's 403) after this.
 */
export const POLLING_RUNNER_TTL_MS = 30_000;

@Injectable()
export class RunnersRepository {
  /** Runners by token digest for their long polls, which come every few seconds per runner. */
  private readonly polling = new LRUCache<string, CiRunnerEntity>({ max: 20_000, ttl: POLLING_RUNNER_TTL_MS });

  constructor(private readonly dataSource: DataSource) {}

  /** Stores a new runner and, for a project runner, its first project, in one transaction. */
  insert(runner: Partial<CiRunnerEntity>, projectId: number | null): Promise<CiRunnerEntity> {
    return this.dataSource.transaction(async (tx) => {
      const repository = tx.getRepository(CiRunnerEntity);
      const saved = await repository.save(repository.create(runner));
      if (projectId !== null) await tx.getRepository(CiRunnerProjectEntity).insert({ runnerId: saved.id, projectId });
      return saved;
    });
  }

  async save(runner: CiRunnerEntity): Promise<CiRunnerEntity> {
    this.polling.delete(runner.tokenDigest);
    return this.dataSource.getRepository(CiRunnerEntity).save(runner);
  }

  async delete(id: number): Promise<boolean> {
    for (const [digest, runner] of this.polling.entries()) if (runner.id === id) this.polling.delete(digest);
    const result = await this.dataSource.getRepository(CiRunnerEntity).delete({ id });
    return (result.affected ?? 0) > 0;
  }

  async findByToken(token: string): Promise<CiRunnerEntity | null> {
    if (!token) return null;
    return this.dataSource.getRepository(CiRunnerEntity).findOneBy({ tokenDigest: digestSecret(token) });
  }

  /**
   * The runner of a token for `POST /jobs/request`, read at most every `POLLING_RUNNER_TTL_MS`
   * per runner and process (a change made here applies at once). The claim itself checks in
   * the database that the runner still exists and is not paused.
   */
  async findForPolling(token: string): Promise<CiRunnerEntity | null> {
    if (!token) return null;
    const digest = digestSecret(token);
    const cached = this.polling.get(digest);
    if (cached) return cached;
    const runner = await this.dataSource.getRepository(CiRunnerEntity).findOneBy({ tokenDigest: digest });
    if (runner) this.polling.set(digest, runner);
    return runner;
  }

  async findById(id: number): Promise<CiRunnerEntity | null> {
    return this.dataSource.getRepository(CiRunnerEntity).findOneBy({ id });
  }

  async projectIds(runnerId: number): Promise<number[]> {
    const rows = await this.dataSource.getRepository(CiRunnerProjectEntity).find({ where: { runnerId }, order: { id: 'ASC' } });
    return rows.map((row) => row.projectId);
  }

  /** Records that the runner asked for work (at most once a minute, as GitLab's heartbeat cache). */
  async touch(runner: CiRunnerEntity, info: Record<string, string> | null, ipAddress: string | null): Promise<void> {
    const fresh = runner.contactedAt && runner.contactedAt.getTime() > Date.now() - 60_000;
    // A runner sends its `info` with every request: only a change is written before the minute is up.
    if (fresh && (!info || sameInfo(runner.info, info))) return;
    runner.contactedAt = new Date();
    // The copy may be reused for the next polls (`findForPolling`): it says what was written.
    if (info) runner.info = info;
    await this.dataSource.query(
      'UPDATE ci_runners SET contacted_at = now(), info = CASE WHEN $2::jsonb IS NULL THEN info ELSE $2::jsonb END, ip_address = COALESCE($3, ip_address) WHERE id = $1',
      [runner.id, info ? JSON.stringify(info) : null, ipAddress],
    );
  }

  /** Runners, newest... GitLab lists by id ascending. `scope` limits to runners a user manages or a project may use. */
  query(
    scope: { kind: 'all' } | { kind: 'owned'; userId: number } | { kind: 'project'; projectId: number; groupIds: number[] },
    filter: RunnerListFilter,
  ): SelectQueryBuilder<CiRunnerEntity> {
    const qb = this.dataSource.getRepository(CiRunnerEntity).createQueryBuilder('r');
    if (scope.kind === 'owned') {
      qb.where(
        `(r.id IN (SELECT rp.runner_id FROM ci_runner_projects rp JOIN members m ON m.source_type = 'project' AND m.source_id = rp.project_id AND m.user_id = :userId AND m.access_level >= 40)
          OR r.group_id IN (SELECT m.source_id FROM members m WHERE m.source_type = 'namespace' AND m.user_id = :userId AND m.access_level >= 50))`,
        { userId: scope.userId },
      );
    } else if (scope.kind === 'project') {
      qb.where(
        `(r.runner_type = 'instance_type' OR r.id IN (SELECT rp.runner_id FROM ci_runner_projects rp WHERE rp.project_id = :projectId)${scope.groupIds.length > 0 ? ' OR r.group_id IN (:...groupIds)' : ''})`,
        { projectId: scope.projectId, groupIds: scope.groupIds },
      );
    } else qb.where('true');
    if (filter.type) qb.andWhere('r.runner_type = :type', { type: filter.type });
    if (filter.paused !== undefined) qb.andWhere('r.paused = :paused', { paused: filter.paused });
    if (filter.tagList && filter.tagList.length > 0) qb.andWhere('r.tag_list @> :tags', { tags: filter.tagList });
    switch (filter.status) {
      case 'online':
        qb.andWhere("r.contacted_at > now() - interval '2 hours'");
        break;
      case 'offline':
        qb.andWhere("r.contacted_at <= now() - interval '2 hours'");
        break;
      case 'never_contacted':
        qb.andWhere('r.contacted_at IS NULL');
        break;
      case 'stale':
        qb.andWhere("(r.contacted_at <= now() - interval '7 days' OR (r.contacted_at IS NULL AND r.created_at <= now() - interval '7 days'))");
        break;
      case 'paused':
        qb.andWhere('r.paused = true');
        break;
      case 'active':
        qb.andWhere('r.paused = false');
        break;
    }
    return qb.orderBy('r.id', 'ASC');
  }
}
