import type { NormalizedEvent } from '../../shared/log-entry';
import { sha1Digest } from './sha1-digest';

/**
 * The entries the writer copies into other sessions: core discovery and generic events, replayed into every
 * session it promotes and written live to every promoted parent session of the window (FORMAT §4.4), and a
 * user_message with no session broadcast to every promoted parent session (§4.9).
 */
const COPIED_TYPES: ReadonlySet<string> = new Set(['discovery', 'generic', 'user_message']);

/**
 * The identity of a whole entry as the writer copies it: everything but `sid` (re-stamped for each session it is
 * written to) and `rIdx` (stamped by the run of the file it lands in). Two lines with the same key are one event
 * written twice; a (spanId, type) match is not, because span ids are per-window counters that collide across
 * sessions and across runs of one session (§10.2). Whether the two sessions are related does not enter: a core
 * event is copied into unrelated sessions of one window, and unrelated entries never share ts, name and attrs.
 * 64 bits of SHA-1: among a million such entries, the odds of any false match are about 1 in 4·10⁷.
 * Null for the types the writer never copies.
 */
export function copyKey(ev: NormalizedEvent): bigint | null {
  if (!COPIED_TYPES.has(ev.type)) return null;
  const whole = JSON.stringify([ev.type, ev.name, ev.spanId, ev.parentSpanId, ev.ts, ev.dur, ev.status, ev.attrs]);
  return sha1Digest(whole).readBigInt64BE(0);
}
