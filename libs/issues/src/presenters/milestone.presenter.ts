import type { ProjectWithNamespace } from '@app/namespaces';
import type { MilestoneEntity } from '../entities/milestone.entity';
import { MilestoneSnapshot, milestoneSnapshot } from '../events/issues.events';

/** Whether a milestone's due date has passed (GitLab's `expired`). */
export const milestoneExpired = (dueDate: string | null, today = new Date().toISOString().slice(0, 10)): boolean => !!dueDate && dueDate < today;

/** GitLab's milestone entity; the project (or the group's full path) gives its `web_url`. */
export function presentMilestone(
  milestone: MilestoneEntity,
  externalUrl: string,
  owner?: ProjectWithNamespace | { groupFullPath: string },
): Record<string, unknown> {
  const webPath = !owner ? undefined : 'groupFullPath' in owner ? `groups/${owner.groupFullPath}` : `${owner.namespace.fullPath}/${owner.path}`;
  return presentMilestoneSnapshot(milestoneSnapshot(milestone)!, externalUrl, webPath);
}

/** The same from a snapshot carried by an event; `webPath` (`group/project` or `groups/group`) builds `web_url`. */
export function presentMilestoneSnapshot(m: MilestoneSnapshot, externalUrl: string, webPath?: string): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: m.id,
    iid: m.iid,
    project_id: m.project_id ?? undefined,
    group_id: m.group_id ?? undefined,
    title: m.title,
    description: m.description,
    state: m.state,
    created_at: m.created_at,
    updated_at: m.updated_at,
    due_date: m.due_date,
    start_date: m.start_date,
    expired: milestoneExpired(m.due_date),
    web_url: webPath ? `${externalUrl}/${webPath}/-/milestones/${m.iid}` : null,
  };
  if (m.project_id === null) delete view.project_id;
  if (m.group_id === null) delete view.group_id;
  return view;
}
