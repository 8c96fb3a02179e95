import { DomainError, ErrorCode } from '@app/api';
import type { SnippetFileActionDto, SnippetFileDto } from '../dto/snippet.dto';

export interface SnippetFile {
  path: string;
  content: string;
}

const checkPaths = (files: SnippetFile[]): SnippetFile[] => {
  const problems: string[] = [];
  if (files.length === 0) problems.push("can't be empty");
  if (files.some((f) => f.path.trim() === '' || f.path.includes('..') || f.path.startsWith('/'))) problems.push('have an invalid path');
  if (new Set(files.map((f) => f.path)).size !== files.length) problems.push('have duplicate paths');
  if (problems.length > 0) throw DomainError.invalid({ files: problems });
  return files;
};

/** The files of a new snippet: `files` (each with content), or `file_name` with `content` (the older single-file form). */
export function filesOfCreate(input: { files?: SnippetFileDto[]; file_name?: string; content?: string }): SnippetFile[] {
  if (input.files && input.content !== undefined) throw new DomainError(ErrorCode.BAD_REQUEST, 'files, content are mutually exclusive', { errorKey: true });
  if (input.files) {
    if (input.files.some((f) => f.content === undefined)) throw DomainError.invalid({ files: ['content is missing'] });
    return checkPaths(input.files.map((f) => ({ path: f.file_path, content: f.content! })));
  }
  if (input.content === undefined)
    throw new DomainError(ErrorCode.BAD_REQUEST, 'files, content are missing, exactly one parameter must be provided', { errorKey: true });
  return checkPaths([{ path: input.file_name ?? 'snippetfile1.txt', content: input.content }]);
}

/** Applies `PUT` changes to the current files: `files` actions, or `file_name`/`content` on a single-file snippet. */
export function filesOfUpdate(current: SnippetFile[], input: { files?: SnippetFileActionDto[]; file_name?: string; content?: string }): SnippetFile[] | null {
  if (input.files) {
    const files = current.map((f) => ({ ...f }));
    for (const change of input.files) {
      const index = files.findIndex((f) => f.path === (change.action === 'move' ? (change.previous_path ?? change.file_path) : change.file_path));
      if (change.action === 'create') {
        if (change.content === undefined) throw DomainError.invalid({ files: ['content is missing'] });
        files.push({ path: change.file_path, content: change.content });
      } else if (index < 0) {
        throw DomainError.invalid({ files: [`${change.previous_path ?? change.file_path} does not exist`] });
      } else if (change.action === 'delete') {
        files.splice(index, 1);
      } else {
        files[index] = { path: change.file_path, content: change.content ?? files[index].content };
      }
    }
    return checkPaths(files);
  }
  if (input.file_name === undefined && input.content === undefined) return null;
  if (current.length > 1) throw DomainError.invalid({ files: ['use files to change a snippet of several files'] });
  return checkPaths([{ path: input.file_name ?? current[0]?.path ?? 'snippetfile1.txt', content: input.content ?? current[0]?.content ?? '' }]);
}

/** A size as Rails' `number_to_human_size` writes it (`10 Bytes`, `1.5 KB`, `977 KB`, `50 MB`): what GitLab's size errors show. */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'Byte' : 'Bytes'}`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), units.length);
  // Three significant digits, insignificant zeros stripped (and no rollover: 1023.9 KB is `1020 KB`, as Rails).
  const value = Number((bytes / 1024 ** exponent).toPrecision(3));
  return `${value} ${units[exponent - 1]}`;
}

/**
 * GitLab's `snippet_size_limit` (bytes, UTF-8): the content of a snippet, here all its files
 * together, at most `limit`; else 400 with GitLab's bytesize message on `content`.
 */
export function checkSnippetSize(files: SnippetFile[], limit: number): void {
  const size = files.reduce((sum, f) => sum + Buffer.byteLength(f.content, 'utf8'), 0);
  if (size > limit) throw DomainError.invalid({ content: [`is too long (${humanSize(size)}). The maximum size is ${humanSize(limit)}.`] });
}
