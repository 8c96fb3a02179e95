import type { DomainEvent } from '@app/messaging';
import type { NoteableType } from '../entities/note.entity';

/**
 * A system note to write for a domain event. `usernames` are resolved by the writer
 * (`{assigned}`/`{unassigned}` placeholders of assignee notes are user ids until then).
 */
export interface PlannedSystemNote {
  action: 'assignee' | 'title' | 'description' | 'confidential' | 'target_branch' | 'commit' | 'cross_reference';
  noteableType: NoteableType;
  noteableId: number;
  body: string;
  /** Assignee notes: whom the change added and removed (ids). */
  assignees?: { added: number[]; removed: number[] };
  /** Commit notes: the branch pushed to (the open merge requests from it get the note). */
  sourceBranch?: string;
  /**
   * Cross references: the issue (`#iid`) or merge request (`!iid`) of the pushed project a commit
   * message mentions (`noteableId` is 0 until the writer finds it), the commit, and the commit
   * author's email (the note's author when a user has it, else the pusher, as GitLab).
   */
  mention?: { iid: number; commit: string; authorEmail: string | null };
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const ids = (value: unknown): number[] => (Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : []);

/** The commits part of a push to a merge request's source branch, as GitLab writes it. */
export function commitsNoteBody(commits: Array<{ id: string; title: string }>, total: number): string {
  const items = commits
    .map((c) => `<li>${c.id.slice(0, 8)} - ${c.title.replace(/[<>&]/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[ch]!)}</li>`)
    .join('');
  return `added ${total} commit${total === 1 ? '' : 's'}\n\n<ul>${items}</ul>`;
}

/**
 * The system notes GitLab writes as notes for a change (assignees, title, description,
 * confidentiality, target branch, commits pushed to a merge request's source branch). State,
 * milestone, iteration, weight and label changes are resource events only: no note. Pure.
 */
export function planSystemNotes(event: DomainEvent): PlannedSystemNote[] {
  const data = event.data;
  const targetId = typeof event.target?.id === 'number' ? event.target.id : null;
  const noteableType: NoteableType | null = event.type === 'issue.updated' ? 'Issue' : event.type === 'merge_request.updated' ? 'MergeRequest' : null;
  if (noteableType && targetId !== null) {
    const changes = isObject(data.changes) ? data.changes : {};
    const notes: PlannedSystemNote[] = [];
    const noun = noteableType === 'Issue' ? 'issue' : 'merge request';
    if (isObject(changes.assignee_ids)) {
      const previous = ids(changes.assignee_ids.previous);
      const current = ids(changes.assignee_ids.current);
      const added = current.filter((id) => !previous.includes(id));
      const removed = previous.filter((id) => !current.includes(id));
      if (added.length + removed.length > 0) notes.push({ action: 'assignee', noteableType, noteableId: targetId, body: '', assignees: { added, removed } });
    }
    if (isObject(changes.title) && typeof changes.title.previous === 'string' && typeof changes.title.current === 'string') {
      notes.push({
        action: 'title',
        noteableType,
        noteableId: targetId,
        body: `changed title from **${changes.title.previous}** to **${changes.title.current}**`,
      });
    }
    if (isObject(changes.description)) notes.push({ action: 'description', noteableType, noteableId: targetId, body: 'changed the description' });
    if (isObject(changes.confidential)) {
      notes.push({
        action: 'confidential',
        noteableType,
        noteableId: targetId,
        body: changes.confidential.current ? `made the ${noun} confidential` : `made the ${noun} visible to everyone`,
      });
    }
    if (isObject(changes.target_branch)) {
      notes.push({
        action: 'target_branch',
        noteableType,
        noteableId: targetId,
        body: `changed target branch from \`${String(changes.target_branch.previous)}\` to \`${String(changes.target_branch.current)}\``,
      });
    }
    return notes;
  }
  if (event.type === 'push' && typeof data.ref === 'string' && data.ref.startsWith('refs/heads/')) {
    const commits = Array.isArray(data.commits) ? data.commits.filter(isObject) : [];
    const total = typeof data.total_commits_count === 'number' ? data.total_commits_count : commits.length;
    if (total === 0) return [];
    const listed = commits.map((c) => ({ id: String(c.id ?? ''), title: String(c.title ?? String(c.message ?? '').split('\n')[0]) })).reverse();
    return [
      {
        action: 'commit',
        noteableType: 'MergeRequest',
        noteableId: 0,
        body: commitsNoteBody(listed, total),
        sourceBranch: data.ref.slice('refs/heads/'.length),
      },
      ...commitMentions(commits),
    ];
  }
  return [];
}

/** `#12` (an issue) and `!3` (a merge request) of the same project, not part of a word or a path. */
const MENTION = /(?<![\w/&#!@-])([#!])(\d{1,9})\b/g;

/**
 * GitLab's cross references of pushed commits (`ProcessCommitWorker`): every issue and merge
 * request of the project a commit message mentions gets `mentioned in commit <sha>`, once per
 * commit and noteable.
 */
export function commitMentions(commits: Json[]): PlannedSystemNote[] {
  const notes: PlannedSystemNote[] = [];
  for (const commit of commits) {
    const sha = typeof commit.id === 'string' ? commit.id : null;
    const message = typeof commit.message === 'string' ? commit.message : typeof commit.title === 'string' ? commit.title : '';
    if (!sha) continue;
    const authorEmail = isObject(commit.author) && typeof commit.author.email === 'string' ? commit.author.email : null;
    const seen = new Set<string>();
    for (const match of message.matchAll(MENTION)) {
      const noteableType: NoteableType = match[1] === '#' ? 'Issue' : 'MergeRequest';
      const key = `${noteableType}:${match[2]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      notes.push({
        action: 'cross_reference',
        noteableType,
        noteableId: 0,
        body: `mentioned in commit ${sha}`,
        mention: { iid: Number(match[2]), commit: sha, authorEmail },
      });
    }
  }
  return notes;
}

/** `assigned to @a and unassigned @b`, as GitLab's assignee system note. */
export function assigneesNoteBody(added: string[], removed: string[]): string {
  const list = (names: string[]): string => {
    const refs = names.map((n) => `@${n}`);
    return refs.length <= 1 ? refs.join('') : `${refs.slice(0, -1).join(', ')} and ${refs[refs.length - 1]}`;
  };
  const parts: string[] = [];
  if (added.length > 0) parts.push(`assigned to ${list(added)}`);
  if (removed.length > 0) parts.push(`unassigned ${list(removed)}`);
  return parts.join(' and ');
}
