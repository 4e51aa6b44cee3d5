import { createHash } from 'node:crypto';

// OTLP ids derived from what the logs say, never random, so that exporting a session twice gives the same file
// and a collector that receives a span twice can tell. Copilot's own span ids are per-window counters that
// collide across sessions and runs (FORMAT §10.2), so each is scoped by the session and run it was written in.

const hex = (s: string, chars: number) => createHash('sha256').update(s).digest('hex').slice(0, chars);

/** 32 hex characters: one trace per top-level session (its child logs share it). */
export function traceIdOf(rootSessionId: string): string {
  return hex(`chronoscope:trace:${rootSessionId}`, 32);
}

/**
 * 16 hex characters for one log line: the session whose log holds it, its run (rIdx), its type and spanId, and
 * `occurrence` (the n-th line with that same key, in line order) for the entries Copilot writes with one id.
 */
export function spanIdOf(traceId: string, sessionId: string, rIdx: number, type: string, spanId: string | null, occurrence: number): string {
  const id = hex(`${traceId}|${sessionId}|${rIdx}|${type}|${spanId ?? ''}|${occurrence}`, 16);
  return id === '0000000000000000' ? '0000000000000001' : id; // all-zero is "invalid" in OTLP
}
