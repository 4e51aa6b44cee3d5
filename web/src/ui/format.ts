// Number, time and size formats shared by every page. Pure functions: the components around them only
// add markup, so these are what the tests pin down.

import { formatCount, formatCredits, plural } from '../../../shared/format-numbers';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "42s ago", "5m ago", "3h ago", "12d ago"; older than 30 days: the date (YYYY-MM-DD, local). */
export function formatRelative(ts: number, now: number): string {
  const d = now - ts;
  if (d < 0) return d > -MINUTE ? 'just now' : `in ${formatRelativeSpan(-d)}`;
  if (d < 5 * SECOND) return 'just now';
  if (d < 30 * DAY) return `${formatRelativeSpan(d)} ago`;
  return formatDate(ts);
}

function formatRelativeSpan(d: number): string {
  if (d < MINUTE) return `${Math.floor(d / SECOND)}s`;
  if (d < HOUR) return `${Math.floor(d / MINUTE)}m`;
  if (d < DAY) return `${Math.floor(d / HOUR)}h`;
  return `${Math.floor(d / DAY)}d`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DD in local time. */
export function formatDate(ts: number): string {
  const t = new Date(ts);
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}`;
}

/** YYYY-MM-DD HH:MM:SS in local time: tooltips and tables where the exact moment matters. */
export function formatDateTime(ts: number): string {
  const t = new Date(ts);
  return `${formatDate(ts)} ${pad(t.getHours())}:${pad(t.getMinutes())}:${pad(t.getSeconds())}`;
}

/** Span and request durations: "0ms", "850ms", "4.21s", "42.5s", "1m 05s", "2h 03m". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < SECOND) return `${Math.round(ms)}ms`;
  if (ms < 10 * SECOND) return `${(ms / SECOND).toFixed(2)}s`;
  if (ms < MINUTE) return `${(ms / SECOND).toFixed(1)}s`;
  if (ms < HOUR) {
    const s = Math.floor(ms / SECOND);
    return `${Math.floor(s / 60)}m ${pad(s % 60)}s`;
  }
  const m = Math.floor(ms / MINUTE);
  return `${Math.floor(m / 60)}h ${pad(m % 60)}m`;
}

export { formatCount, formatCredits, plural };

/** 999, 1.2k, 12k, 3.4M: where space is tight (the top bar). */
export function formatCompact(n: number): string {
  const abs = Math.abs(n);
  if (abs < 1000) return String(n);
  const [div, unit] = abs < 1e6 ? [1e3, 'k'] : abs < 1e9 ? [1e6, 'M'] : [1e9, 'G'];
  const v = n / div;
  return `${Math.abs(v) < 10 ? v.toFixed(1).replace(/\.0$/, '') : Math.round(v)}${unit}`;
}

/** 512 B, 4.0 kB, 12.3 MB (decimal units, like the file managers people compare with). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n / 1000;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

/** The first 8 characters of a session id: enough to tell sessions apart on screen; the full id goes in a title. */
export function shortId(id: string): string {
  return id.length > 8 ? id.slice(0, 8) : id;
}

