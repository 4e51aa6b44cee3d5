import type { NormalizedEvent } from '../../shared/log-entry';

/** Longest signature kept: enough to tell causes apart, short enough to be a group label and an index key. */
export const SIGNATURE_MAX = 200;

// Order matters: the wide shapes (URLs, timestamps, paths) are masked before the digit runs inside them.
const MASKS: [RegExp, string][] = [
  [/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"`<>()]+/gi, '<url>'],
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<time>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>'],
  // Windows paths (C:\x\y, \\server\share) and POSIX paths (/a/b, ~/a, ./a, ../a) after a boundary; a
  // trailing ':' or '.' is the sentence's, not the path's.
  [/(?:\b[A-Za-z]:|\\\\[^\s\\'"`]+)\\(?:[^\s'"`,;()<>[\]{}]*[^\s'"`,;()<>[\]{}:.])?/g, '<path>'],
  [/(?<=^|[\s'"`(=[{:,])(?:~|\.{1,2})?\/[^\s'"`,;()<>[\]{}]*[^\s'"`,;()<>[\]{}:.]/g, '<path>'],
  // Relative paths: two segments or more ending in an extension (src/a.ts), or three segments or more.
  [/(?<![\w@./\\-])[\w@.-]+(?:\/[\w@.-]+)*\/[\w@-]+\.[A-Za-z0-9]{1,8}\b/g, '<path>'],
  [/(?<![\w@./\\-])[\w@.-]+\/[\w@.-]+\/[\w@.-]+(?:\/[\w@.-]+)*/g, '<path>'],
  // Prefixed ids (call_1a2b…, toolu_…, resp_…, req-…) and hashes: hex runs of 7+ holding a digit.
  [/\b[A-Za-z]+[_-](?=[A-Za-z0-9]*\d)[A-Za-z0-9]{8,}\b/g, '<id>'],
  [/\b(?:0x)?(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b/gi, '<hash>'],
  [/\b(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{16,}\b/g, '<id>'],
  // Digit runs not glued to a preceding letter (so utf8, e2e, http2 stay; 30000ms, line 12, 1.5s are masked).
  [/(?<![A-Za-z_<])\d+(?:[.,]\d+)*/g, '<n>'],
];

/**
 * The cause of a failure, with what varies between occurrences masked, so that "File not found: /a/b.ts" and
 * "File not found: /c/d.ts" are one group. Rules, in order: keep the first non-empty line (stack traces and
 * command output below it vary), mask URLs, ISO timestamps, UUIDs, paths (absolute, home-relative, Windows,
 * and relative ones with an extension or three segments), prefixed ids, hex hashes, long mixed ids, then
 * every digit run not glued to a preceding letter; collapse whitespace; cut to SIGNATURE_MAX characters.
 * Changing these rules changes stored data: bump SCHEMA_VERSION (the signature is computed at ingest).
 */
export function errorSignature(message: string | null | undefined): string {
  if (message === null || message === undefined) return '(no message)';
  const first = message.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  let s = first.length > 2000 ? first.slice(0, 2000) : first;
  for (const [re, by] of MASKS) s = s.replace(re, by);
  s = s.replace(/\s+/g, ' ').trim();
  if (s === '') return '(no message)';
  return s.length > SIGNATURE_MAX ? `${s.slice(0, SIGNATURE_MAX - 1)}…` : s;
}

/**
 * The skip reasons a discovery event reports in `details` (FORMAT §6: `skipped: [{"path": …, "reason":
 * "name-mismatch"}]`), distinct and sorted; [] when nothing was skipped. The details may be cut at 5,000
 * characters (invalid JSON), so the reasons are read with a pattern, not JSON.parse.
 */
export function discoverySkipReasons(details: unknown): string[] {
  if (typeof details !== 'string') return [];
  const at = details.search(/\bskipped\b/i);
  if (at < 0) return [];
  const tail = details.slice(at);
  if (/^skipped\s*:\s*\[\s*\]/i.test(tail)) return [];
  const reasons = new Set<string>();
  for (const m of tail.matchAll(/["']?reason["']?\s*[:=]\s*["']?([\w./ -]+?)["']?\s*[,}\]\n]/gi)) reasons.add(m[1].trim());
  if (reasons.size === 0) {
    // "skipped 2 (name-mismatch)" or "skipped: foo (missing-description)": a word with a dash in parentheses.
    for (const m of tail.matchAll(/\(([a-z]+(?:-[a-z]+)+)\)/g)) reasons.add(m[1]);
  }
  if (reasons.size === 0) {
    const n = /^skipped\s*[:=]?\s*(\d+)/i.exec(tail);
    if (n && Number(n[1]) === 0) return [];
    return ['unknown reason'];
  }
  return [...reasons].sort();
}

/**
 * Whether an event is a failure the triage page groups, and its signature: every event with status error
 * (failed tool and model calls, subagents, hooks with resultKind error, discovery errors), hooks that
 * report `non_blocking_error`, and discovery events that skipped instructions, skills or agents. null: not a
 * failure. Computed once at ingest into `events.fail` so that grouping never reads the raw lines.
 */
export function failureSignature(ev: NormalizedEvent): string | null {
  const a = ev.attrs;
  if (ev.status === 'error') {
    const text = ev.error ?? (typeof a.details === 'string' ? a.details : typeof a.output === 'string' ? a.output : null);
    return errorSignature(text);
  }
  if (ev.type === 'hook' && a.resultKind === 'non_blocking_error') {
    return errorSignature(ev.error ?? (typeof a.output === 'string' ? a.output : null));
  }
  if (ev.type === 'discovery') {
    const reasons = discoverySkipReasons(a.details);
    if (reasons.length > 0) return `skipped: ${reasons.join(', ')}`;
  }
  return null;
}
