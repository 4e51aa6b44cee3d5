export interface TextSegment {
  text: string;
  highlighted: boolean;
}

/**
 * Cuts `text` into plain and highlighted segments at the given [start, end) offsets (UTF-16, as the server
 * reports them). Ranges may be unsorted, overlapping or out of bounds: they are clamped and merged. The
 * segments joined give back `text` exactly, so highlighting never changes what is shown, and everything
 * stays text (no HTML is built from log content).
 */
export function segmentByRanges(text: string, ranges: readonly (readonly [number, number])[]): TextSegment[] {
  const clamped = ranges
    .map(([s, e]) => [Math.max(0, Math.min(s, text.length)), Math.max(0, Math.min(e, text.length))] as [number, number])
    .filter(([s, e]) => e > s)
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const r of clamped) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  const out: TextSegment[] = [];
  let at = 0;
  for (const [s, e] of merged) {
    if (s > at) out.push({ text: text.slice(at, s), highlighted: false });
    out.push({ text: text.slice(s, e), highlighted: true });
    at = e;
  }
  if (at < text.length || out.length === 0) out.push({ text: text.slice(at), highlighted: false });
  return out;
}
