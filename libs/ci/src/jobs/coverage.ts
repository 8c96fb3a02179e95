import { runInNewContext } from 'node:vm';

/** The end of the log that the coverage regex reads (GitLab reads the log from its end). */
export const COVERAGE_SCAN_BYTES = 1024 * 1024;
/** How long a coverage regex may run: a regex written by the project must not hold a gateway. */
export const COVERAGE_REGEX_TIMEOUT_MS = 200;

const ANSI = /\x1b\[[0-9;]*[A-Za-z]|\x1b\][^\x07]*\x07/g;

/** `/pattern/flags` (GitLab's form) or a bare pattern, as a global RegExp; null when it does not compile. */
export function coverageRegexOf(source: string): RegExp | null {
  const match = /^\/(.*)\/([a-z]*)$/s.exec(source.trim());
  const [pattern, flags] = match ? [match[1], match[2]] : [source, ''];
  try {
    return new RegExp(pattern, [...new Set(`${flags.replace(/[gy]/g, '')}g`)].join(''));
  } catch {
    return null;
  }
}

/**
 * The coverage a log reports (GitLab's `extract_coverage`): the last line the regex matches,
 * its last match, the first number in it. Runs with a time limit (a catastrophic pattern gives
 * no coverage instead of a stuck process). Null when nothing matches.
 */
export function extractCoverage(source: string, log: string): number | null {
  const regex = coverageRegexOf(source);
  if (!regex) return null;
  const text = log.replace(ANSI, '');
  let found: unknown;
  try {
    found = runInNewContext(
      `(() => { const lines = text.split('\\n'); for (let i = lines.length - 1; i >= 0; i--) { const all = lines[i].match(re); if (all) { const n = /\\d+(?:\\.\\d+)?/.exec(all[all.length - 1]); if (n) return n[0]; } } return null; })()`,
      { re: regex, text },
      { timeout: COVERAGE_REGEX_TIMEOUT_MS },
    );
  } catch {
    return null;
  }
  if (typeof found !== 'string') return null;
  const value = Number(found);
  return Number.isFinite(value) && value >= 0 && value < 100_000 ? Math.round(value * 100) / 100 : null;
}
