import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runInNewContext } from 'node:vm';

interface LanguageData {
  name: string;
  type: string;
  extensions?: string[];
  filenames?: string[];
  group?: string;
}

/**
 * Ties between languages sharing an extension (`.h`: C, C++, Objective-C) go to the first
 * of this list, then to the language whose primary extension it is, then alphabetically.
 */
const PREFERRED = [
  'C',
  'C++',
  'JavaScript',
  'TypeScript',
  'Python',
  'Ruby',
  'PHP',
  'Java',
  'Go',
  'Rust',
  'Shell',
  'HTML',
  'CSS',
  'Perl',
  'Objective-C',
  'SQL',
  'XML',
  'YAML',
  'JSON',
  'Markdown',
  'Text',
  'reStructuredText',
  'Makefile',
  'Dockerfile',
  'Visual Basic .NET',
  'Fortran',
  'Prolog',
];

/** Paths that are not the project's own code: vendored, documentation, generated (Linguist's spirit, simplified). */
const EXCLUDED_PATHS = [
  /(^|\/)(node_modules|vendor|vendors|third[-_]party|bower_components|\.yarn|Godeps|Pods|Carthage)\//i,
  /(^|\/)(docs?|Documentation)\//i,
  /(^|\/)(dist|build|out|target|coverage)\//,
  /\.min\.(js|css)$/i,
  /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Gemfile\.lock|Cargo\.lock|composer\.lock|poetry\.lock)$/,
  /\.(pb\.go|pb\.cc|pb\.h|_pb2\.py|designer\.cs|generated\.\w+)$/i,
];

/** Maps file names to languages with the `linguist-languages` data set (extensions and file names). */
export class LanguageDetector {
  private static shared: LanguageDetector | undefined;
  private readonly byFilename = new Map<string, LanguageData>();
  private readonly byExtension = new Map<string, LanguageData>();

  private constructor(languages: LanguageData[]) {
    const candidates = new Map<string, LanguageData[]>();
    for (const language of languages) {
      for (const filename of language.filenames ?? []) if (!this.byFilename.has(filename)) this.byFilename.set(filename, language);
      for (const extension of language.extensions ?? []) {
        const key = extension.toLowerCase();
        candidates.set(key, [...(candidates.get(key) ?? []), language]);
      }
    }
    for (const [extension, list] of candidates) this.byExtension.set(extension, pick(extension, list));
  }

  /** The detector over the installed data set (loaded once). */
  static instance(): LanguageDetector {
    LanguageDetector.shared ??= new LanguageDetector(loadLinguistData());
    return LanguageDetector.shared;
  }

  /**
   * The language counted for a path, or null: unknown, excluded path, or a language that is
   * neither programming nor markup (Linguist's statistics leave out data and prose).
   */
  languageOf(path: string): string | null {
    if (EXCLUDED_PATHS.some((pattern) => pattern.test(path))) return null;
    const base = path.slice(path.lastIndexOf('/') + 1);
    let language = this.byFilename.get(base);
    if (!language) {
      const lower = base.toLowerCase();
      for (let dot = lower.indexOf('.', 1); dot !== -1 && !language; dot = lower.indexOf('.', dot + 1)) language = this.byExtension.get(lower.slice(dot));
    }
    if (!language || (language.type !== 'programming' && language.type !== 'markup')) return null;
    return language.group ?? language.name;
  }

  /** `{language: percent}` by bytes, percentages rounded to 2 decimals, largest first. */
  percentages(files: Array<{ path: string; size: number | null }>): Record<string, number> {
    const bytes = new Map<string, number>();
    let total = 0;
    for (const file of files) {
      if (!file.size) continue;
      const language = this.languageOf(file.path);
      if (!language) continue;
      bytes.set(language, (bytes.get(language) ?? 0) + file.size);
      total += file.size;
    }
    if (total === 0) return {};
    const sorted = [...bytes.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    return Object.fromEntries(sorted.map(([name, size]) => [name, Math.round((size / total) * 10000) / 100]));
  }
}

function pick(extension: string, list: LanguageData[]): LanguageData {
  if (list.length === 1) return list[0];
  const preferred = PREFERRED.map((name) => list.find((l) => l.name === name)).find(Boolean);
  if (preferred) return preferred;
  const primary = list.filter((l) => l.extensions?.[0]?.toLowerCase() === extension);
  const pool = primary.length > 0 ? primary : list;
  return [...pool].sort((a, b) => a.name.localeCompare(b.name))[0];
}

/** Reads the data files of `linguist-languages` (each `export default {...}`: plain literals, evaluated in an empty context). */
function loadLinguistData(): LanguageData[] {
  const dataDir = join(dirname(require.resolve('linguist-languages')), 'data');
  const languages: LanguageData[] = [];
  for (const file of readdirSync(dataDir)) {
    if (!file.endsWith('.js')) continue;
    const source = readFileSync(join(dataDir, file), 'utf8').replace(/^\s*export\s+default\s+/, '');
    try {
      const value = runInNewContext(`(${source.replace(/;\s*$/, '')})`, Object.create(null), { timeout: 1000 }) as LanguageData;
      if (value && typeof value.name === 'string') languages.push(value);
    } catch {
      // A data file that is not a plain literal is skipped.
    }
  }
  return languages;
}
