import { Injectable } from '@nestjs/common';
import { tierAtLeast } from '@app/api';
import { AppConfig } from '@app/config';
import { UserEntity } from '@app/identity';
import { IterationEntity, LabelEntity, MilestoneEntity, UpdateEpicUseCase, UpdateIssueUseCase, UpdateMergeRequestUseCase } from '@app/issues';
import { ACCESS_LEVELS, ProjectWithNamespace } from '@app/namespaces';
import { MergeMergeRequestUseCase } from '@app/repository';
import type { Noteable, NoteActor } from '../core/noteable';
import type { EpicNoteable, ProjectNoteable } from '../noteables/noteables.service';
import { QuickActionLookupsRepository } from './quick-action-lookups.repository';
import {
  parseIterationReference,
  parseLabelReferences,
  parseMilestoneReference,
  parseUserReferences,
  parseWeight,
  QuickAction,
  QuickActionName,
} from './quick-actions';

/** What a body's quick actions did: GitLab's `commands_changes` and the messages of `summary`. */
export interface QuickActionsOutcome {
  changes: Record<string, unknown>;
  messages: string[];
  /** Commands that could not be applied (unknown user, milestone, a `/merge` without the head sha...). */
  failures: string[];
}

export type QuickActionTarget = ProjectNoteable | EpicNoteable;

export interface QuickActionsRun {
  target: QuickActionTarget;
  /** The project of an issue or merge request; null for an epic (its group is on the target). */
  project: ProjectWithNamespace | null;
  actor: NoteActor;
  /** `merge_request_diff_head_sha` of the request: `/merge` runs only when it is the source head. */
  diffHeadSha?: string;
}

const METADATA: readonly QuickActionName[] = ['assign', 'unassign', 'milestone', 'remove_milestone', 'weight', 'iteration', 'label', 'unlabel', 'relabel'];
const noun = (target: QuickActionTarget): string => (target.kind === 'issue' ? 'issue' : target.kind === 'epic' ? 'epic' : 'merge request');
const recordOf = (
  target: QuickActionTarget,
): { iid: number; state: string; authorId: number; labels: string[]; assigneeIds: number[]; milestoneId: number | null } =>
  target.kind === 'issue' ? target.issue : target.kind === 'merge_request' ? target.mergeRequest : { ...target.epic, assigneeIds: [], milestoneId: null };
const labelRefs = (labels: LabelEntity[]): string => labels.map((l) => (/^[\w-]+$/.test(l.title) ? `~${l.title}` : `~"${l.title}"`)).join(' ');
const labelNoun = (labels: LabelEntity[]): string => (labels.length > 1 ? 'labels' : 'label');
const joinRefs = (refs: string[]): string => (refs.length <= 1 ? refs.join('') : `${refs.slice(0, -1).join(', ')} and ${refs[refs.length - 1]}`);
const failed = (name: string): string => `Could not apply ${name} command.`;

/**
 * Runs the quick actions of an issue or merge request note through the same use cases as the
 * REST updates (so their domain events, resource events and permission rules are the same),
 * and `/merge` through the merge path with its protected-branch rules.
 */
@Injectable()
export class QuickActionsService {
  constructor(
    private readonly lookups: QuickActionLookupsRepository,
    private readonly config: AppConfig,
    private readonly updateIssue: UpdateIssueUseCase,
    private readonly updateMergeRequest: UpdateMergeRequestUseCase,
    private readonly updateEpic: UpdateEpicUseCase,
    private readonly merge: MergeMergeRequestUseCase,
  ) {}

  /** Which commands the actor may run on the target now (others stay in the note as text). */
  availability(target: QuickActionTarget, actor: NoteActor): (name: QuickActionName) => boolean {
    const record = recordOf(target);
    const adminLevel = target.kind === 'merge_request' ? ACCESS_LEVELS.DEVELOPER : ACCESS_LEVELS.REPORTER;
    const admin = actor.isAdmin || actor.accessLevel >= adminLevel;
    // Epics are edited by Reporter+ only (GitLab's `update_epic`), their authors included.
    const canUpdate = admin || (target.kind !== 'epic' && record.authorId === actor.id);
    const premium = tierAtLeast(this.config.tier, 'premium');
    return (name) => {
      if (name === 'close') return canUpdate && record.state === 'opened';
      if (name === 'reopen') return canUpdate && record.state === 'closed';
      if (name === 'merge')
        return target.kind === 'merge_request' && record.state === 'opened' && (actor.isAdmin || actor.accessLevel >= ACCESS_LEVELS.DEVELOPER);
      if ((name === 'weight' || name === 'iteration') && !premium) return false;
      // `/unlabel` and `/relabel` need labels to take away, as GitLab.
      if ((name === 'unlabel' || name === 'relabel') && record.labels.length === 0) return false;
      return METADATA.includes(name) && admin;
    };
  }

  async run(run: QuickActionsRun, actions: QuickAction[]): Promise<QuickActionsOutcome> {
    const { target, project, actor } = run;
    const record = recordOf(target);
    const outcome: QuickActionsOutcome = { changes: {}, messages: [], failures: [] };
    const update: {
      stateEvent?: 'close' | 'reopen';
      assigneeIds?: number[];
      milestoneId?: number | null;
      iterationId?: number | null;
      weight?: number | null;
      labels?: string[];
    } = {};
    let assignees = [...record.assigneeIds];
    let merge = false;

    for (const action of actions) {
      switch (action.name) {
        case 'close':
        case 'reopen':
          update.stateEvent = action.name;
          outcome.changes.state_event = action.name;
          outcome.messages.push(`${action.name === 'close' ? 'Closed' : 'Reopened'} this ${noun(target)}.`);
          break;
        case 'assign': {
          const users = await this.users(parseUserReferences(action.argument), actor);
          if (users.length === 0) {
            outcome.failures.push('Failed to assign a user because no user was found.');
            break;
          }
          // Issues take one assignee below PREMIUM (the last one named), as GitLab.
          const multiple = target.kind === 'merge_request' || tierAtLeast(this.config.tier, 'premium');
          assignees = multiple ? [...new Set([...assignees, ...users.map((u) => u.id)])] : [users[users.length - 1].id];
          update.assigneeIds = assignees;
          outcome.changes.assignee_ids = assignees;
          outcome.messages.push(`Assigned ${joinRefs(users.map((u) => `@${u.username}`))}.`);
          break;
        }
        case 'unassign': {
          const named = action.argument ? await this.users(parseUserReferences(action.argument), actor) : null;
          const removed = named ? named.filter((u) => assignees.includes(u.id)) : await this.usersById(assignees);
          if (removed.length === 0) {
            outcome.failures.push(failed('unassign'));
            break;
          }
          assignees = assignees.filter((id) => !removed.some((u) => u.id === id));
          update.assigneeIds = assignees;
          outcome.changes.assignee_ids = assignees;
          outcome.messages.push(`Removed ${removed.length > 1 ? 'assignees' : 'assignee'} ${joinRefs(removed.map((u) => `@${u.username}`))}.`);
          break;
        }
        case 'milestone': {
          const title = parseMilestoneReference(action.argument);
          const milestone = title && project ? await this.milestone(project, title) : null;
          if (!milestone) {
            outcome.failures.push(failed('milestone'));
            break;
          }
          update.milestoneId = milestone.id;
          outcome.changes.milestone_id = milestone.id;
          outcome.messages.push(`Set the milestone to %${JSON.stringify(milestone.title).replace(/^"([^"\s]+)"$/, '$1')}.`);
          break;
        }
        case 'remove_milestone': {
          const current = record.milestoneId ? await this.lookups.milestoneById(record.milestoneId) : null;
          update.milestoneId = null;
          outcome.changes.milestone_id = null;
          outcome.messages.push(current ? `Removed %${current.title} milestone.` : 'Removed the milestone.');
          break;
        }
        case 'weight': {
          const weight = parseWeight(action.argument);
          if (weight === null) {
            outcome.failures.push(failed('weight'));
            break;
          }
          update.weight = weight;
          outcome.changes.weight = weight;
          outcome.messages.push(`Set weight to ${weight}.`);
          break;
        }
        case 'iteration': {
          const reference = parseIterationReference(action.argument);
          const iteration = reference && project ? await this.iteration(project, reference) : null;
          if (!iteration) {
            outcome.failures.push(failed('iteration'));
            break;
          }
          update.iterationId = iteration.id;
          outcome.changes.iteration_id = iteration.id;
          outcome.messages.push(`Set the iteration to *iteration:${iteration.id}.`);
          break;
        }
        case 'label': {
          const labels = await this.labels(run, parseLabelReferences(action.argument));
          if (labels.length === 0) {
            outcome.failures.push(failed('label'));
            break;
          }
          update.labels = [...new Set([...(update.labels ?? record.labels), ...labels.map((l) => l.title)])];
          outcome.changes.add_label_ids = [...new Set([...((outcome.changes.add_label_ids as number[] | undefined) ?? []), ...labels.map((l) => l.id)])];
          outcome.messages.push(`Added ${labelRefs(labels)} ${labelNoun(labels)}.`);
          break;
        }
        case 'unlabel': {
          // Without labels named: all of them go (GitLab's `label_ids: []`, "Removed all labels.").
          if (action.argument === '') {
            update.labels = [];
            outcome.changes.label_ids = [];
            outcome.messages.push('Removed all labels.');
            break;
          }
          const current = update.labels ?? record.labels;
          const labels = (await this.labels(run, parseLabelReferences(action.argument))).filter((l) => current.includes(l.title));
          if (labels.length === 0) {
            outcome.failures.push(failed('unlabel'));
            break;
          }
          update.labels = current.filter((title) => !labels.some((l) => l.title === title));
          outcome.changes.remove_label_ids = [...new Set([...((outcome.changes.remove_label_ids as number[] | undefined) ?? []), ...labels.map((l) => l.id)])];
          outcome.messages.push(`Removed ${labelRefs(labels)} ${labelNoun(labels)}.`);
          break;
        }
        case 'relabel': {
          const labels = await this.labels(run, parseLabelReferences(action.argument));
          if (labels.length === 0) {
            outcome.failures.push(failed('relabel'));
            break;
          }
          update.labels = labels.map((l) => l.title);
          outcome.changes.label_ids = labels.map((l) => l.id);
          outcome.messages.push(`Replaced all labels with ${labelRefs(labels)} ${labelNoun(labels)}.`);
          break;
        }
        case 'merge':
          if (!run.diffHeadSha) {
            outcome.failures.push(failed('merge'));
            break;
          }
          merge = true;
          break;
      }
    }

    if (Object.keys(update).length > 0) {
      if (target.kind === 'epic') {
        const attributes = { state_event: update.stateEvent, labels: update.labels };
        await this.updateEpic.execute({ groupId: target.group.id, iid: record.iid, actorId: actor.id, actorLevel: actor.accessLevel, attributes });
      } else {
        const common = { actorId: actor.id, actorLevel: actor.accessLevel, project: project!, iid: record.iid, ...update };
        if (target.kind === 'issue') await this.updateIssue.execute(common);
        else await this.updateMergeRequest.execute(common);
      }
    }
    if (merge && target.kind === 'merge_request' && project) {
      try {
        await this.merge.execute({
          project,
          user: { id: actor.id, isAdmin: actor.isAdmin },
          accessLevel: actor.accessLevel,
          iid: record.iid,
          sha: run.diffHeadSha,
        });
        outcome.changes.merge = run.diffHeadSha;
        outcome.messages.push('Merged this merge request.');
      } catch {
        // A moved head, a conflict, a protected target: the merge path refused; the note says so.
        outcome.failures.push(failed('merge'));
      }
    }
    return outcome;
  }

  private async users(references: Array<string | { me: true }>, actor: NoteActor): Promise<UserEntity[]> {
    const names = references.map((ref) => (typeof ref === 'string' ? ref : actor.username));
    if (names.length === 0) return [];
    const found = await this.lookups.usersByUsername(names);
    return names.map((n) => found.find((u) => u.username.toLowerCase() === n.toLowerCase())).filter((u): u is UserEntity => !!u);
  }

  private async usersById(ids: number[]): Promise<UserEntity[]> {
    if (ids.length === 0) return [];
    const found = await this.lookups.usersById(ids);
    return ids.map((id) => found.find((u) => u.id === id)).filter((u): u is UserEntity => !!u);
  }

  private ancestorGroups(project: ProjectWithNamespace): number[] {
    return project.namespace.kind === 'group' ? project.namespace.traversalIds : [];
  }

  /** An active milestone of the project or of one of its groups, by title. */
  private milestone(project: ProjectWithNamespace, title: string): Promise<MilestoneEntity | null> {
    return this.lookups.activeMilestone(project.id, this.ancestorGroups(project), title);
  }

  private async iteration(project: ProjectWithNamespace, reference: { id: number } | { title: string }): Promise<IterationEntity | null> {
    const groups = this.ancestorGroups(project);
    if (groups.length === 0) return null;
    return this.lookups.iteration(groups, reference);
  }

  /**
   * The labels among `titles` that exist in the project or its groups (an epic: its group and
   * the group's ancestors), in the order named.
   */
  private async labels(run: QuickActionsRun, titles: string[]): Promise<LabelEntity[]> {
    if (titles.length === 0) return [];
    const { project, target } = run;
    const groups = target.kind === 'epic' ? target.group.traversalIds : project ? this.ancestorGroups(project) : [];
    const found = await this.lookups.labels({ projectId: project ? project.id : null, groupIds: groups }, titles);
    return titles.map((t) => found.find((l) => l.title === t)).filter((l): l is LabelEntity => !!l);
  }
}
