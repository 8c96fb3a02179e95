import { RE2JS } from 're2js';

/** Thrown for a pattern that is not a regular expression RE2 accepts (GitLab's `RegexpError`). */
export class UntrustedRegexpError extends Error {}

/**
 * GitLab's `UntrustedRegexp::RubySyntax::PATTERN`: `/pattern/flags`, the flags among `i`
 * (case-insensitive), `s` (`.` matches a newline), `m` (`^`/`$` at line ends) and `U` (ungreedy).
 */
const RUBY_SYNTAX = /^\/(.*)\/([ismU]*)$/;

/** Compiled patterns by source: rules are evaluated for every job of every pipeline. */
const CACHE_LIMIT = 1000;
const cache = new Map<string, UntrustedRegexp | UntrustedRegexpError>();

/**
 * A regular expression written by a user (`.gitlab-ci.yml`, a CI/CD variable): compiled and run by
 * RE2 (`re2js`), whose matching time is linear in the input, so that no pattern can hold the
 * gateway's thread (`/^(a+)+$/` on a long string costs what `/a/` costs). As GitLab's
 * `Gitlab::UntrustedRegexp`, RE2 refuses what it cannot run in linear time: backreferences
 * (`\1`), lookahead and lookbehind (`(?=`, `(?!`, `(?<=`, `(?<!`), possessive quantifiers.
 * `^` and `$` match at the ends of the text only, unless the `m` flag is given.
 *
 * The one place that compiles a user-supplied pattern: every caller goes through it.
 */
export class UntrustedRegexp {
  private constructor(
    private readonly regexp: RE2JS,
    /** The pattern as RE2 compiled it, flags included (`(?i)abc`). */
    readonly source: string,
  ) {}

  /** `pattern` with `flags` (i, s, m, U) put in front as `(?flags)`, as GitLab does. Throws UntrustedRegexpError. */
  static compile(pattern: string, flags = ''): UntrustedRegexp {
    const source = flags ? `(?${flags})${pattern}` : pattern;
    let compiled = cache.get(source);
    if (compiled === undefined) {
      try {
        compiled = new UntrustedRegexp(RE2JS.compile(source), source);
      } catch (error) {
        compiled = new UntrustedRegexpError(error instanceof Error ? error.message : String(error));
      }
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(source, compiled);
    }
    if (compiled instanceof UntrustedRegexpError) throw compiled;
    return compiled;
  }

  /** Whether `text` has GitLab's `/pattern/flags` form (valid or not: `/a(/` has it). */
  static matchesSyntax(text: string): boolean {
    return RUBY_SYNTAX.test(text);
  }

  /** GitLab's `RubySyntax.fabricate!`: `/pattern/flags` compiled; throws UntrustedRegexpError otherwise. */
  static fabricate(text: string): UntrustedRegexp {
    const match = RUBY_SYNTAX.exec(text);
    if (!match) throw new UntrustedRegexpError('Invalid regular expression!');
    return UntrustedRegexp.compile(match[1], match[2]);
  }

  /** GitLab's `RubySyntax.fabricate`: as `fabricate`, null for anything that is not a valid `/pattern/flags`. */
  static fabricateOrNull(text: string): UntrustedRegexp | null {
    try {
      return UntrustedRegexp.fabricate(text);
    } catch (error) {
      if (error instanceof UntrustedRegexpError) return null;
      throw error;
    }
  }

  /** Whether the pattern matches anywhere in `text` (an empty match counts, as GitLab's `scan(text).present?`). */
  test(text: string): boolean {
    return this.regexp.matcher(text).find();
  }

  /** Every match of the whole pattern in `text`, left to right, not overlapping. */
  matches(text: string): string[] {
    const matcher = this.regexp.matcher(text);
    const found: string[] = [];
    while (matcher.find()) found.push(matcher.group() ?? '');
    return found;
  }
}

const escapeLiteral = (char: string): string => (/[A-Za-z0-9_/-]/.test(char) ? char : `\\${char}`);

/**
 * A path glob of `changes:` / `exists:` as GitLab matches it (`File.fnmatch?` with
 * `FNM_PATHNAME | FNM_DOTMATCH | FNM_EXTGLOB`), as an RE2 pattern: `*`, `?` and `[...]` stay
 * within one path segment (dot files included), `**` and a slash is any number of directories,
 * `{a,b}` is either, `\x` is `x`. A JavaScript glob library compiles to backtracking regexps instead
 * (`*a*a*a*a*a*a*a*a*a*a*a*a*b` against a long path took minutes): no glob can do that here.
 */
export function globToUntrustedRegexp(glob: string): UntrustedRegexp {
  let i = 0;
  const alternatives = (closing: boolean): string => {
    const parts: string[] = [];
    let current = '';
    while (i < glob.length) {
      const c = glob[i];
      if (closing && c === '}') {
        i += 1;
        return `(?:${[...parts, current].join('|')})`;
      }
      if (closing && c === ',') {
        parts.push(current);
        current = '';
        i += 1;
        continue;
      }
      if (c === '{') {
        i += 1;
        current += alternatives(true);
        continue;
      }
      if (c === '\\' && i + 1 < glob.length) {
        current += escapeLiteral(glob[i + 1]);
        i += 2;
        continue;
      }
      if (c === '*') {
        if (glob.startsWith('**/', i)) {
          current += '(?:[^/]*/)*';
          i += 3;
        } else {
          while (glob[i] === '*') i += 1;
          current += '[^/]*';
        }
        continue;
      }
      if (c === '?') {
        current += '[^/]';
        i += 1;
        continue;
      }
      if (c === '[') {
        const end = glob.indexOf(']', i + 2);
        if (end > 0) {
          const body = glob.slice(i + 1, end);
          const negated = body.startsWith('!') || body.startsWith('^');
          const members = [...(negated ? body.slice(1) : body)].map((m) => (m === '-' ? '-' : escapeLiteral(m))).join('');
          current += negated ? `[^/${members}]` : `[${members}]`;
          i = end + 1;
          continue;
        }
      }
      current += escapeLiteral(c);
      i += 1;
    }
    // An unclosed `{` is a literal brace followed by its text.
    return closing ? `\\{${[...parts, current].join(',')}` : current;
  };
  return UntrustedRegexp.compile(`^${alternatives(false)}$`);
}
