import type { AlertStatus, Severity } from './api';

export const SEVERITIES: Severity[] = ['critical', 'high', 'medium', 'low', 'info', 'unknown'];

/** Severity: a label and a distinct icon shape as well as a colour (never colour alone). */
export const SEVERITY_META: Record<Severity, { label: string; icon: string }> = {
  critical: { label: 'Critical', icon: '⬣' },
  high: { label: 'High', icon: '▲' },
  medium: { label: 'Medium', icon: '◆' },
  low: { label: 'Low', icon: '▼' },
  info: { label: 'Info', icon: 'ℹ' },
  unknown: { label: 'Unknown', icon: '?' },
};

export const STATUS_LABEL: Record<AlertStatus, string> = {
  triggered: 'Triggered',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
  ignored: 'Ignored',
};

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 31_536_000],
  ['month', 2_592_000],
  ['week', 604_800],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "3 minutes ago" for an ISO time, relative to `now`. */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return relative.format(Math.round(seconds / size), unit);
  }
  return iso;
}

const exact = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'long' });
export const exactTime = (iso: string): string => exact.format(new Date(iso));
