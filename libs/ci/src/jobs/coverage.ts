import { UntrustedRegexp, UntrustedRegexpError } from '../config/untrusted-regexp';

/** The end of the log that the coverage regex reads (GitLab reads the log from its end). */
export const COVERAGE_SCAN_BYTES = 1024 * 1024;

/** Colour codes and terminal titles of a log; an unterminated title stops at the next escape, so the scan stays linear. */
const ANSI = /\x1b\[[0-9;]*[A-Za-z]|\x1b\][^\x07\x1b]*\x07/g;

/** `/pattern/flags` (GitLab's form) or a bare pattern, compiled by RE2; null when it does not compile. */
export function coverageRegexOf(source: string): UntrustedRegexp | null {
  const text = source.trim();
  try {
    return UntrustedRegexp.matchesSyntax(text) ? UntrustedRegexp.fabricate(text) : UntrustedRegexp.compile(source);
  } catch (error) {
    if (error instanceof UntrustedRegexpError) return null;
    throw error;
  }
}

/**
 * The coverage a log reports (GitLab's `extract_coverage`): the last line the regex matches,
 * its last match, the first number in it. The regex runs with RE2 (linear time: a catastrophic
 * pattern costs no more than any other). Null when nothing matches.
 */
export function extractCoverage(source: string, log: string): number | null {
  const regex = coverageRegexOf(source);
  if (!regex) return null;
  const lines = log.replace(ANSI, '').split('\n');
  let found: string | null = null;
  for (let i = lines.length - 1; i >= 0 && found === null; i--) {
    const all = regex.matches(lines[i]);
    if (all.length > 0) found = /\d+(?:\.\d+)?/.exec(all[all.length - 1])?.[0] ?? null;
  }
  if (typeof found !== 'string') return null;
  const value = Number(found);
  return Number.isFinite(value) && value >= 0 && value < 100_000 ? Math.round(value * 100) / 100 : null;
}
