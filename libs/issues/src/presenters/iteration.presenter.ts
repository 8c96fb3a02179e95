import type { IterationEntity } from '../entities/iteration.entity';
import { IterationSnapshot, iterationSnapshot } from '../events/issues.events';
import type { GroupPaths } from '../repositories/iterations.repository';

/** GitLab's iteration states: 1 upcoming, 2 current, 3 closed. */
export const ITERATION_STATES = { upcoming: 1, current: 2, closed: 3 } as const;
export type IterationStateName = keyof typeof ITERATION_STATES;

export function iterationStateName(startDate: string, dueDate: string, today = new Date().toISOString().slice(0, 10)): IterationStateName {
  if (dueDate < today) return 'closed';
  if (startDate > today) return 'upcoming';
  return 'current';
}

export function presentIteration(iteration: IterationEntity, externalUrl: string, groupPaths: GroupPaths): Record<string, unknown> {
  return presentIterationSnapshot(iterationSnapshot(iteration)!, externalUrl, groupPaths);
}

export function presentIterationSnapshot(i: IterationSnapshot, externalUrl: string, groupPaths: GroupPaths = new Map()): Record<string, unknown> {
  return {
    id: i.id,
    iid: i.iid,
    sequence: i.iid,
    group_id: i.group_id,
    title: i.title,
    description: i.description,
    state: ITERATION_STATES[iterationStateName(i.start_date, i.due_date)],
    created_at: i.created_at,
    updated_at: i.updated_at,
    start_date: i.start_date,
    due_date: i.due_date,
    // `/groups/<full path>/-/iterations/<id>`; a group deleted since keeps GitLab's `-` placeholder.
    web_url: `${externalUrl}/groups/${groupPaths.get(i.group_id) ?? '-'}/-/iterations/${i.id}`,
  };
}
