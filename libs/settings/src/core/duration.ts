/**
 * Human-readable durations ("3 days", "1 week 2 days", "36h", "90 minutes"), as GitLab reads
 * `archive_builds_in_human_readable` and `default_artifacts_expire_in`. A bare number counts
 * seconds; a month is 30 days and a year 365 days.
 */
const UNIT_SECONDS: ReadonlyArray<[RegExp, number]> = [
  [/^(s|sec|secs|second|seconds)$/, 1],
  [/^(m|min|mins|minute|minutes)$/, 60],
  [/^(h|hr|hrs|hour|hours)$/, 3600],
  [/^(d|day|days)$/, 86_400],
  [/^(w|wk|wks|week|weeks)$/, 604_800],
  [/^(mo|mos|month|months)$/, 2_592_000],
  [/^(y|yr|yrs|year|years)$/, 31_536_000],
];

export const ONE_DAY_SECONDS = 86_400;

/** Seconds in `text`, or null when it is not a duration. */
export function parseDuration(text: string): number | null {
  const normalized = text
    .trim()
    .toLowerCase()
    .replace(/,/g, ' ')
    .replace(/\band\b/g, ' ');
  if (normalized === '') return null;
  if (/^\d+(\.\d+)?$/.test(normalized)) return Math.round(Number(normalized));
  const parts = normalized.match(/(\d+(?:\.\d+)?)\s*([a-z]+)/g);
  if (!parts || parts.join('').replace(/\s+/g, '') !== normalized.replace(/\s+/g, '')) return null;
  let total = 0;
  for (const part of parts) {
    const [, amount, unit] = /^(\d+(?:\.\d+)?)\s*([a-z]+)$/.exec(part)!;
    const factor = UNIT_SECONDS.find(([pattern]) => pattern.test(unit))?.[1];
    if (factor === undefined) return null;
    total += Number(amount) * factor;
  }
  return Math.round(total);
}

const OUTPUT_UNITS: ReadonlyArray<[string, number]> = [
  ['year', 31_536_000],
  ['month', 2_592_000],
  ['day', 86_400],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** `seconds` in GitLab's long format: "1 day 12 hours". */
export function formatDuration(seconds: number): string {
  let rest = seconds;
  const words: string[] = [];
  for (const [unit, size] of OUTPUT_UNITS) {
    const count = Math.floor(rest / size);
    if (count > 0) {
      words.push(`${count} ${unit}${count === 1 ? '' : 's'}`);
      rest -= count * size;
    }
  }
  return words.length > 0 ? words.join(' ') : '0 seconds';
}
