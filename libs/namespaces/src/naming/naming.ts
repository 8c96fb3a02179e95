import type { ValidationMessages } from '@app/api';

/** Texts of GitLab's path and name validators. */
export const NAMING_MESSAGES = {
  projectPath: "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'",
  namespacePath: "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'",
  projectName: "can contain only letters, digits, emoji, '_', '.', '+', dashes, or spaces. It must start with a letter, digit, emoji, or '_'.",
  groupName: "can contain only letters, digits, emoji, '_', '.', dash, space, parenthesis. It must start with letter, digit, emoji or '_'.",
  blank: "can't be blank",
  tooLong: 'is too long (maximum is 255 characters)',
  taken: 'has already been taken',
} as const;

export const MAX_NAME_LENGTH = 255;

const PATH_PATTERN = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;
const PROJECT_NAME_PATTERN = /^[\p{L}\p{N}\p{Extended_Pictographic}_][\p{L}\p{N}\p{Pd}\p{Extended_Pictographic}+_. ]*$/u;
const GROUP_NAME_PATTERN = /^[\p{L}\p{N}\p{Extended_Pictographic}_][\p{L}\p{N}\p{Pd}\p{Extended_Pictographic}_(). ]*$/u;

/** First segments the web routes use: no top-level group may take them. */
const RESERVED_TOP_LEVEL = new Set([
  '-',
  '.well-known',
  '404.html',
  '422.html',
  '500.html',
  '502.html',
  '503.html',
  'admin',
  'api',
  'apple-touch-icon.png',
  'assets',
  'dashboard',
  'deploy.html',
  'explore',
  'favicon.ico',
  'favicon.png',
  'files',
  'groups',
  'health_check',
  'help',
  'import',
  'jwt',
  'login',
  'oauth',
  'profile',
  'projects',
  'public',
  'robots.txt',
  's',
  'search',
  'sitemap',
  'sitemap.xml',
  'sitemap.xml.gz',
  'snippets',
  'unsubscribes',
  'uploads',
  'users',
  'v2',
]);
/** Project routes that a project path would shadow. */
const RESERVED_PROJECT = new Set([
  '-',
  'badges',
  'blame',
  'blob',
  'builds',
  'commits',
  'create',
  'create_dir',
  'edit',
  'files',
  'find_file',
  'new',
  'preview',
  'raw',
  'refs',
  'tree',
  'update',
  'wikis',
]);

const endsWithForbiddenSuffix = (path: string): boolean => /\.(git|atom)$/i.test(path);

function collect(messages: ValidationMessages, key: string, errors: string[]): void {
  if (errors.length > 0) messages[key] = errors;
}

function nameErrors(name: string, pattern: RegExp, text: string): string[] {
  if (name.trim() === '') return [NAMING_MESSAGES.blank];
  const errors: string[] = [];
  if (name.length > MAX_NAME_LENGTH) errors.push(NAMING_MESSAGES.tooLong);
  if (!pattern.test(name)) errors.push(text);
  return errors;
}

function pathErrors(path: string, kind: 'project' | 'namespace', reserved: Set<string>): string[] {
  if (path === '') return [NAMING_MESSAGES.blank];
  const errors: string[] = [];
  if (path.length > MAX_NAME_LENGTH) errors.push(NAMING_MESSAGES.tooLong);
  const badShape = !PATH_PATTERN.test(path) || endsWithForbiddenSuffix(path) || (kind === 'namespace' && path.endsWith('.'));
  if (badShape) errors.push(kind === 'project' ? NAMING_MESSAGES.projectPath : NAMING_MESSAGES.namespacePath);
  else if (reserved.has(path.toLowerCase())) errors.push(`${path} is a reserved name`);
  return errors;
}

/** Validation messages (`{name: [...], path: [...]}`) for a project's name and path; empty when valid. */
export function validateProjectNaming(input: { name?: string; path?: string }): ValidationMessages {
  const messages: ValidationMessages = {};
  if (input.name !== undefined) collect(messages, 'name', nameErrors(input.name, PROJECT_NAME_PATTERN, NAMING_MESSAGES.projectName));
  if (input.path !== undefined) collect(messages, 'path', pathErrors(input.path, 'project', RESERVED_PROJECT));
  return messages;
}

/** Validation messages for a group's name and path (`topLevel`: the web's reserved first segments apply). */
export function validateGroupNaming(input: { name?: string; path?: string }, topLevel: boolean): ValidationMessages {
  const messages: ValidationMessages = {};
  if (input.name !== undefined) collect(messages, 'name', nameErrors(input.name, GROUP_NAME_PATTERN, NAMING_MESSAGES.groupName));
  if (input.path !== undefined) collect(messages, 'path', pathErrors(input.path, 'namespace', topLevel ? RESERVED_TOP_LEVEL : new Set(['-'])));
  return messages;
}

/** Rails' `parameterize`: ASCII, lower case, runs of other characters become one '-'. "Alert Router" → "alert-router". */
export function parameterize(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Name and path of a new project when only one of them was given (GitLab: path from name, or name from path). */
export function deriveProjectNaming(input: { name?: string; path?: string }): { name: string; path: string } {
  const name = input.name ?? input.path ?? '';
  const path = input.path ?? parameterize(input.name ?? '');
  return { name, path };
}

/** Escapes `%`, `_` and `\` for an ILIKE pattern. */
export const likePattern = (term: string): string => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
