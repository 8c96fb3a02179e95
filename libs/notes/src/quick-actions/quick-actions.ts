import { readFileSync } from 'node:fs';
import { dbIntOrNull } from '@app/api';

/** The quick actions this service runs. Each applies to some noteable types only. */
export const QUICK_ACTIONS = {
  close: ['Issue', 'MergeRequest', 'Epic'],
  reopen: ['Issue', 'MergeRequest', 'Epic'],
  assign: ['Issue', 'MergeRequest'],
  unassign: ['Issue', 'MergeRequest'],
  milestone: ['Issue', 'MergeRequest'],
  remove_milestone: ['Issue', 'MergeRequest'],
  weight: ['Issue'],
  iteration: ['Issue'],
  label: ['Issue', 'MergeRequest', 'Epic'],
  unlabel: ['Issue', 'MergeRequest', 'Epic'],
  relabel: ['Issue', 'MergeRequest', 'Epic'],
  merge: ['MergeRequest'],
} as const;

export type QuickActionName = keyof typeof QUICK_ACTIONS;

/** Aliases GitLab accepts for the same commands. */
const ALIASES: Readonly<Record<string, QuickActionName>> = { labels: 'label', assign_reviewer: 'assign', remove_label: 'unlabel' };

export interface QuickAction {
  name: QuickActionName;
  /** The text after the command on its line, trimmed ('' when none). */
  argument: string;
}

export interface ExtractedQuickActions {
  /** The body without the command lines (trimmed at both ends, as GitLab stores it). */
  body: string;
  actions: QuickAction[];
}

const COMMAND_LINE = /^\/([a-z_]+)(?:[ \t]+(.*))?$/;
const FENCE = /^\s*(```|~~~)/;

/**
 * Takes the quick actions out of a note body, as GitLab does: a command is a line of its own
 * starting with `/<name>`; lines inside fenced code blocks and quoted lines are text; a
 * command that does not apply to `noteableType` (or is unknown) stays in the body.
 */
export function extractQuickActions(body: string, noteableType: string, available: (name: QuickActionName) => boolean = () => true): ExtractedQuickActions {
  const kept: string[] = [];
  const actions: QuickAction[] = [];
  let fenced = false;
  for (const line of body.split(/\r?\n/)) {
    if (FENCE.test(line)) {
      fenced = !fenced;
      kept.push(line);
      continue;
    }
    const match = fenced ? null : COMMAND_LINE.exec(line.trimEnd());
    const raw = match?.[1];
    const name = raw ? ((raw in QUICK_ACTIONS ? raw : ALIASES[raw]) as QuickActionName | undefined) : undefined;
    if (!name || !(QUICK_ACTIONS[name] as readonly string[]).includes(noteableType) || !available(name)) {
      kept.push(line);
      continue;
    }
    actions.push({ name, argument: (match![2] ?? '').trim() });
  }
  return { body: kept.join('\n').trim(), actions };
}

/** `@alice @bob`, `@alice,@bob` or `me`: the usernames (without `@`), in order, without repeats. */
export function parseUserReferences(argument: string): Array<string | { me: true }> {
  const seen = new Set<string>();
  const result: Array<string | { me: true }> = [];
  for (const token of argument.split(/[\s,]+/).filter(Boolean)) {
    if (token === 'me') {
      if (!seen.has('\u0000me')) result.push({ me: true });
      seen.add('\u0000me');
      continue;
    }
    const name = token.replace(/^@/, '');
    if (!/^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/.test(name) || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    result.push(name);
  }
  return result;
}

/** `%v1`, `%"Release 1"` or `v1`: the milestone title. */
export function parseMilestoneReference(argument: string): string | null {
  const text = argument.trim();
  const quoted = /^%?"([^"]+)"$/.exec(text);
  if (quoted) return quoted[1];
  const plain = text.replace(/^%/, '').trim();
  return plain === '' ? null : plain;
}

/** `~bug ~"needs review"`: the label titles, in order, without repeats. */
export function parseLabelReferences(argument: string): string[] {
  const titles: string[] = [];
  const pattern = /~"([^"]+)"|~([^\s~"]+)|"([^"]+)"|([^\s~"]+)/g;
  for (let match = pattern.exec(argument); match; match = pattern.exec(argument)) {
    const title = (match[1] ?? match[2] ?? match[3] ?? match[4]).trim();
    if (title && !titles.includes(title)) titles.push(title);
  }
  return titles;
}

/**
 * `*iteration:"Sprint 1"`, `*iteration:12` (its id) or a plain title. An id beyond the integer
 * range names no iteration: null (the command fails as for an unknown iteration).
 */
export function parseIterationReference(argument: string): { id: number } | { title: string } | null {
  const text = argument.trim().replace(/^\*iteration:/, '');
  if (text === '') return null;
  if (/^\d+$/.test(text)) {
    const id = dbIntOrNull(text);
    return id === null ? null : { id };
  }
  const quoted = /^"([^"]+)"$/.exec(text);
  return { title: quoted ? quoted[1] : text };
}

/** `/weight 3`: a non-negative integer weight, else null (the command then fails). */
export function parseWeight(argument: string): number | null {
  return /^\d{1,9}$/.test(argument.trim()) ? Number(argument.trim()) : null;
}

let emojiNames: ReadonlySet<string> | undefined;

/** GitLab's emoji names (the short names of the Unicode emoji set, `thumbsup`, `+1`...). */
function knownEmoji(): ReadonlySet<string> {
  if (!emojiNames) {
    const file = require.resolve('emoji-datasource/emoji.json');
    const rows = JSON.parse(readFileSync(file, 'utf8')) as Array<{ short_names: string[] }>;
    emojiNames = new Set(rows.flatMap((row) => row.short_names));
  }
  return emojiNames;
}

/** Whether `name` is one of GitLab's emoji names (`thumbsup`, `+1`, `rocket`...). */
export function isEmojiName(name: string): boolean {
  return knownEmoji().has(name);
}

/** The emoji name of a body made of one award emoji only (`:thumbsup:`), else null. */
export function awardEmojiOf(body: string): string | null {
  const match = /^:([a-z0-9_+-]+):\s?$/.exec(body.trim());
  if (!match) return null;
  return knownEmoji().has(match[1]) ? match[1] : null;
}
