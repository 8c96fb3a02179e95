import { DomainError } from '@app/api';
import type { ProjectWithNamespace } from '@app/namespaces';
import { EntityManager } from 'typeorm';
import { IterationEntity } from '../entities/iteration.entity';
import { MilestoneEntity } from '../entities/milestone.entity';
import { Change, milestoneSnapshot } from '../events/issues.events';

/** The reads of the helpers below, in the caller's transaction (MilestonesRepository, IterationsRepository and identity's UsersRepository). */
export interface MilestoneReads {
  findById(tx: EntityManager, id: number): Promise<MilestoneEntity | null>;
}
export interface IterationReads {
  findById(tx: EntityManager, id: number): Promise<IterationEntity | null>;
}
export interface UserReads {
  existingIds(tx: EntityManager, ids: number[]): Promise<number[]>;
}

/** Group ids whose milestones and iterations a project's issues may use: the groups above it. */
export const projectAncestorGroupIds = (project: ProjectWithNamespace): number[] => (project.namespace.kind === 'group' ? project.namespace.traversalIds : []);

/** The milestone `id` of the project or one of its groups; 0/null mean "none". 404 otherwise. */
export async function resolveMilestone(
  milestones: MilestoneReads,
  tx: EntityManager,
  project: ProjectWithNamespace,
  id: number | null,
): Promise<MilestoneEntity | null> {
  if (!id) return null;
  const milestone = await milestones.findById(tx, id);
  const belongs =
    milestone && (milestone.projectId === project.id || (milestone.groupId !== null && projectAncestorGroupIds(project).includes(milestone.groupId)));
  if (!belongs) throw DomainError.notFound('Milestone');
  return milestone;
}

/** The iteration `id` of one of the project's groups; 0/null mean "none". 404 otherwise. */
export async function resolveIteration(
  iterations: IterationReads,
  tx: EntityManager,
  project: ProjectWithNamespace,
  id: number | null,
): Promise<IterationEntity | null> {
  if (!id) return null;
  const iteration = await iterations.findById(tx, id);
  if (!iteration || !projectAncestorGroupIds(project).includes(iteration.groupId)) throw DomainError.notFound('Iteration');
  return iteration;
}

/** Keeps the ids of existing users, in order, without repeats (GitLab drops unknown assignees). */
export async function existingUserIds(users: UserReads, tx: EntityManager, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids.filter((id) => id > 0))];
  if (unique.length === 0) return [];
  const found = new Set(await users.existingIds(tx, unique));
  return unique.filter((id) => found.has(id));
}

/**
 * The `labels` list filter as GitLab's `Issuables::LabelFilter` reads it: `None` (any case) means
 * "no label", else `Any` means "at least one label", else every named label is required. SQL over
 * the `labels` text array of `alias`.
 */
export function labelsFilterSql(alias: string, labels: string[] | undefined): { sql: string; params: Record<string, unknown> } | null {
  if (!labels?.length) return null;
  const lower = labels.map((l) => l.toLowerCase());
  if (lower.includes('none')) return { sql: `cardinality(${alias}.labels) = 0`, params: {} };
  if (lower.includes('any')) return { sql: `cardinality(${alias}.labels) > 0`, params: {} };
  return { sql: `${alias}.labels @> :labels`, params: { labels } };
}

/** Labels as GitLab stores them: trimmed, unique, in order. */
export const normalizeLabels = (labels: string[]): string[] => [...new Set(labels.map((l) => l.trim()).filter(Boolean))];

/** What an issue and a merge request share for the changes below. */
interface Issuable {
  milestoneId: number | null;
  state: string;
  closedAt: Date | null;
  closedById: number | null;
}

/**
 * Moves `target` to the requested milestone (`null` removes it) and records the change with
 * before/after snapshots; nothing when it is already there.
 */
export async function changeMilestone(
  milestones: MilestoneReads,
  tx: EntityManager,
  target: Issuable,
  project: ProjectWithNamespace,
  id: number | null,
  changes: Record<string, Change<unknown>>,
): Promise<void> {
  const next = await resolveMilestone(milestones, tx, project, id);
  if ((next?.id ?? null) === target.milestoneId) return;
  const previous = target.milestoneId ? await milestones.findById(tx, target.milestoneId) : null;
  changes.milestone = { previous: milestoneSnapshot(previous), current: milestoneSnapshot(next) };
  target.milestoneId = next?.id ?? null;
}

/** Applies `state_event` close/reopen; returns which happened (null when the state does not change). */
export function applyStateEvent(target: Issuable, stateEvent: 'close' | 'reopen' | undefined, actorId: number): 'closed' | 'reopened' | null {
  if (stateEvent === 'close' && target.state === 'opened') {
    Object.assign(target, { state: 'closed', closedAt: new Date(), closedById: actorId });
    return 'closed';
  }
  if (stateEvent === 'reopen' && target.state === 'closed') {
    Object.assign(target, { state: 'opened', closedAt: null, closedById: null });
    return 'reopened';
  }
  return null;
}
