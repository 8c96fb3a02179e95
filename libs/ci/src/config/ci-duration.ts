const UNITS: Record<string, number> = {
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  mins: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hr: 3600,
  hrs: 3600,
  hour: 3600,
  hours: 3600,
  d: 86400,
  day: 86400,
  days: 86400,
  w: 604800,
  wk: 604800,
  week: 604800,
  weeks: 604800,
  mo: 2_629_746,
  mos: 2_629_746,
  month: 2_629_746,
  months: 2_629_746,
  y: 31_556_952,
  yr: 31_556_952,
  yrs: 31_556_952,
  year: 31_556_952,
  years: 31_556_952,
};

/**
 * Seconds of a human duration as CI configurations write them (`3600`, `1h 30m`, `2 days`,
 * `1 week and 2 days`, `30 mins`); null when it does not read as one. A bare number is seconds.
 */
export function parseCiDuration(input: string | number): number | null {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? Math.floor(input) : null;
  const text = input
    .trim()
    .toLowerCase()
    .replace(/,|\band\b/g, ' ');
  if (text === '') return null;
  if (/^\d+$/.test(text)) return Number.isFinite(Number(text)) ? Number(text) : null;
  const part = /(\d+(?:\.\d+)?)\s*([a-z]+)/g;
  let total = 0;
  let consumed = '';
  let match: RegExpExecArray | null;
  while ((match = part.exec(text)) !== null) {
    const unit = UNITS[match[2]];
    if (unit === undefined) return null;
    total += Number(match[1]) * unit;
    consumed += match[0];
  }
  if (consumed.replace(/\s/g, '') !== text.replace(/\s/g, '')) return null;
  // Hundreds of digits overflow to Infinity: no duration.
  return Number.isFinite(total) ? Math.floor(total) : null;
}
