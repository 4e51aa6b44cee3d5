import type Database from 'better-sqlite3';
import { rawLines } from '../db/raw-lines';
import { sessionTree } from '../spans/tree-cache';
import type { SpanEntry } from '../spans/span-tree';
import { spanIdOf, traceIdOf } from './span-ids';

/** One event of a session's tree, ready for export: its line, its OTLP ids and its parent's. */
export interface ExportSpan {
  entry: SpanEntry;
  /** the archived line, parsed */
  raw: Record<string, unknown>;
  rawText: string;
  attrs: Record<string, unknown>;
  rIdx: number;
  spanId: string;
  /** null for a root of the tree */
  parentSpanId: string | null;
  depth: number;
}

export interface SessionSpans {
  rootSessionId: string;
  traceId: string;
  spans: ExportSpan[];
  /** Σ of the archived lines' lengths: what the export's size grows with */
  rawChars: number;
}

const READ_BATCH = 2000;

/**
 * Every event of a session and its child logs, in tree order (pre-order, children by start), each with the
 * OTLP id of the node it hangs under in the span tree: child logs come out under the span that started them
 * (the tree links parentSpanId across the parent and child files). Lines repeated inside one file (dup 2) are
 * left out, as the tree view hides them; their children move to the nearest ancestor kept.
 */
export function sessionSpans(db: Database.Database, sessionId: string): SessionSpans | null {
  const cached = sessionTree(db, sessionId);
  if (!cached) return null;
  const { tree } = cached;
  const traceId = traceIdOf(tree.rootSessionId);
  const kept: number[] = [];
  for (let i = 0; i < tree.nodes.length; i++) if (tree.nodes[i].entry.dup !== 2) kept.push(i);
  const lines = rawLines(db);
  const idOfNode = new Map<number, string>();
  const occurrences = new Map<string, number>();
  const spans: ExportSpan[] = [];
  let rawChars = 0;
  // Occurrences count in line order (events.id), not tree order, so that a tree that changes shape as a session
  // grows keeps the ids of the lines it already had.
  const byLine = [...kept].sort((a, b) => tree.nodes[a].entry.id - tree.nodes[b].entry.id);
  const texts = new Map<number, string>();
  for (let k = 0; k < byLine.length; k += READ_BATCH) {
    const ids = byLine.slice(k, k + READ_BATCH).map((i) => tree.nodes[i].entry.id);
    for (const [id, t] of lines.texts(ids)) texts.set(id, t);
  }
  const parsed = new Map<number, { raw: Record<string, unknown>; text: string; rIdx: number }>();
  for (const i of byLine) {
    const e = tree.nodes[i].entry;
    const text = texts.get(e.id) ?? '{}';
    let raw: Record<string, unknown> = {};
    try {
      const v = JSON.parse(text) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) raw = v as Record<string, unknown>;
    } catch {
      /* archived as an event, so it parsed once */
    }
    const rIdx = typeof raw.rIdx === 'number' ? raw.rIdx : 0;
    const key = `${e.sessionId}|${rIdx}|${e.type}|${e.spanId ?? ''}`;
    const n = occurrences.get(key) ?? 0;
    occurrences.set(key, n + 1);
    idOfNode.set(i, spanIdOf(traceId, e.sessionId, rIdx, e.type, e.spanId, n));
    parsed.set(i, { raw, text, rIdx });
    rawChars += text.length;
  }
  for (const i of kept) {
    const node = tree.nodes[i];
    let p = node.parent;
    while (p >= 0 && !idOfNode.has(p)) p = tree.nodes[p].parent;
    const { raw, text, rIdx } = parsed.get(i)!;
    const attrs = raw.attrs && typeof raw.attrs === 'object' && !Array.isArray(raw.attrs) ? (raw.attrs as Record<string, unknown>) : {};
    spans.push({ entry: node.entry, raw, rawText: text, attrs, rIdx, spanId: idOfNode.get(i)!, parentSpanId: p >= 0 ? idOfNode.get(p)! : null, depth: node.depth });
  }
  return { rootSessionId: tree.rootSessionId, traceId, spans, rawChars };
}
