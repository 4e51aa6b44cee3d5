import type Database from 'better-sqlite3';
import type { SessionSource } from '../../shared/api';
import { rawLines } from '../db/raw-lines';
import { sessionTree, type CachedTree } from '../spans/tree-cache';
import type { SpanEntry, SpanTree } from '../spans/span-tree';
import type { RawLogEntry } from '../../shared/log-entry';
import { isCliEnvelope } from '../ingest/cli/normalize-cli';
import { startArgumentsOf } from '../ingest/cli/start-arguments';
import { lineAttrs } from '../ingest/normalize';
import { cliExportAttrs } from './cli-attrs';
import { spanIdOf, traceIdOf } from './span-ids';
import { positionIn } from '../spans/sorted-position';

/** One event of a session's tree with its line: what a reader of the session's text needs (Markdown). */
export interface SpanLine {
  entry: SpanEntry;
  /** the archived line, parsed */
  raw: Record<string, unknown>;
  rawText: string;
  attrs: Record<string, unknown>;
  depth: number;
}

/** One event of a session's tree, ready for export: its line, its OTLP ids and its parent's. */
export interface ExportSpan extends SpanLine {
  rIdx: number;
  spanId: string;
  /** null for a root of the tree */
  parentSpanId: string | null;
}

export interface SessionSpans {
  rootSessionId: string;
  /** which product wrote the root session: the resource says so (otlp-spans.ts) */
  source: SessionSource;
  traceId: string;
  spans: ExportSpan[];
}

/**
 * A session's export before any line is read: which tree nodes it holds, in tree order. Lines are read for the
 * positions asked, so that an export of a large family can go part by part (the bench archive's largest family,
 * 254k spans, held every line parsed at once: 3.4 GB of RSS for `--split`), and the OTLP ids are derived on the first
 * read that needs them (every node of the tree is counted for them: ~0.7 s for that family, which Markdown does not need).
 */
export interface SpanPlan extends Omit<SessionSpans, 'spans'> {
  /** how many spans the export holds */
  length: number;
  /** the k-th span's event, type and depth, from the tree's columns: no line read */
  entry(k: number): SpanEntry;
  type(k: number): string;
  depth(k: number): number;
  /** the position of an event among the spans, or null */
  positionOf(eventId: number): number | null;
  /** the spans at these positions (ascending), with their lines */
  linesAt(positions: number[]): SpanLine[];
  /** …and their OTLP ids */
  readAt(positions: number[]): ExportSpan[];
  /** the spans `from..to`, with their lines */
  lines(from: number, to: number): SpanLine[];
  /** …and their ids */
  read(from: number, to: number): ExportSpan[];
}

const READ_BATCH = 2000;

/** from, from + 1, …, to − 1 */
const positions = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from) }, (_, j) => from + j);

interface SpanIds {
  /** events.id → its r_idx, where not 0 */
  runs: Map<number, number>;
  /** tree node → its OTLP span id */
  idOfNode: Map<number, string>;
}

/**
 * The OTLP ids of a cached tree's nodes, kept while the tree is (tree-cache.ts keeps one while its events stay the
 * same): forwarding asks for them batch after batch of 500 events, and for the largest family of the bench archive
 * deriving them again took ~0.9 s a batch.
 */
const idsOfTree = new WeakMap<CachedTree, Map<string, SpanIds>>();

function spanIdsOf(db: Database.Database, tree: SpanTree, kept: number[], nums: string, traceId: string): SpanIds {
  const runs = new Map<number, number>();
  for (const r of db.prepare('SELECT id, r_idx FROM events WHERE session_num IN (SELECT value FROM json_each(?)) AND r_idx != 0').iterate(nums) as Iterable<{ id: number; r_idx: number }>) runs.set(r.id, r.r_idx);
  // Occurrences count in line order (events.id), not tree order, so that a tree that changes shape as a session
  // grows keeps the ids of the lines it already had.
  const idOfNode = new Map<number, string>();
  const occurrences = new Map<string, number>();
  for (const i of [...kept].sort((a, b) => tree.id(a) - tree.id(b))) {
    const e = tree.entry(i);
    const rIdx = runs.get(e.id) ?? 0;
    const key = `${e.sessionId}|${rIdx}|${e.type}|${e.spanId ?? ''}`;
    const n = occurrences.get(key) ?? 0;
    occurrences.set(key, n + 1);
    idOfNode.set(i, spanIdOf(traceId, e.sessionId, rIdx, e.type, e.spanId, n));
  }
  return { runs, idOfNode };
}

/** The start lines of the scope's Copilot CLI tool calls, by `<session id>|<tool call id>`, in id order. */
function cliStartLines(db: Database.Database, sessions: { num: number; id: string }[], nums: string): Map<string, number[]> {
  const idOf = new Map(sessions.map((x) => [x.num, x.id]));
  const out = new Map<string, number[]>();
  const rows = db
    .prepare("SELECT id, session_num, span_id FROM events WHERE session_num IN (SELECT value FROM json_each(?)) AND type = 'tool.execution_start' AND span_id IS NOT NULL ORDER BY id")
    .iterate(nums) as Iterable<{ id: number; session_num: number; span_id: string }>;
  for (const r of rows) {
    const key = `${idOf.get(r.session_num)}|${r.span_id}`;
    const list = out.get(key);
    if (list) list.push(r.id);
    else out.set(key, [r.id]);
  }
  return out;
}

/** The last id of an ascending list below `id` (a tool call id started again after a resume: its own start). */
function latestBelow(ids: number[] | undefined, id: number): number | undefined {
  if (!ids) return undefined;
  for (let i = ids.length - 1; i >= 0; i--) if (ids[i] < id) return ids[i];
  return undefined;
}

/** A line parsed, when it is a JSON object. */
function parsedObject(text: string | undefined): Record<string, unknown> | null {
  if (text === undefined) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Every event of a session and its child logs, in tree order (pre-order, children by start), each with the
 * OTLP id of the node it hangs under in the span tree: child logs come out under the span that started them
 * (the tree links parentSpanId across the parent and child files). Lines repeated inside one file (dup 2) are
 * left out, as the tree view hides them; their children move to the nearest ancestor kept.
 *
 * `only` picks the events wanted (forwarding sends the new ones): ids are still derived for the whole tree,
 * from columns, but only the picked lines are read from the archive. `traceRoot` puts the spans in another
 * session's trace (a child log forwarded before its parent's tree reached it).
 */
export function sessionSpans(db: Database.Database, sessionId: string, only?: (eventId: number) => boolean, traceRoot?: string): SessionSpans | null {
  const plan = sessionSpanPlan(db, sessionId, only, traceRoot);
  if (!plan) return null;
  return { rootSessionId: plan.rootSessionId, source: plan.source, traceId: plan.traceId, spans: plan.read(0, plan.length) };
}

/** What `sessionSpans` exports, its lines left to be read a few at a time (SpanPlan). */
export function sessionSpanPlan(db: Database.Database, sessionId: string, only?: (eventId: number) => boolean, traceRoot?: string): SpanPlan | null {
  const cached = sessionTree(db, sessionId);
  if (!cached) return null;
  const { tree } = cached;
  const traceId = traceIdOf(traceRoot ?? tree.rootSessionId);
  const kept: number[] = [];
  for (let i = 0; i < tree.length; i++) if (tree.dup(i) !== 2) kept.push(i);
  const nums = JSON.stringify(cached.scope.sessions.map((x) => x.num));
  const wanted = only ? kept.filter((i) => only(tree.id(i))) : kept;
  const idsOnce = () => {
    let byTrace = idsOfTree.get(cached);
    if (!byTrace) idsOfTree.set(cached, (byTrace = new Map()));
    let ids = byTrace.get(traceId);
    if (!ids) byTrace.set(traceId, (ids = spanIdsOf(db, tree, kept, nums, traceId)));
    return ids;
  };
  // A Copilot CLI tool call's arguments are on its start line, another event: read with the wanted lines.
  let startOf: Map<string, number[]> | null = null;
  const lines = rawLines(db);
  const linesAt = (positions: number[]): SpanLine[] => {
    startOf ??= cliStartLines(db, cached.scope.sessions, nums);
    const nodes = positions.map((k) => wanted[k]);
    /** a CLI completion's event id → its start line's */
    const startIds = new Map<number, number>();
    const toRead: number[] = [];
    for (const i of nodes) {
      toRead.push(tree.id(i));
      if (startOf.size === 0 || tree.type(i) !== 'tool_call') continue;
      const e = tree.entry(i);
      const start = e.spanId === null ? undefined : latestBelow(startOf.get(`${e.sessionId}|${e.spanId}`), e.id);
      if (start === undefined) continue;
      startIds.set(e.id, start);
      toRead.push(start);
    }
    const texts = new Map<number, string>();
    for (let k = 0; k < toRead.length; k += READ_BATCH) {
      for (const [id, t] of lines.texts(toRead.slice(k, k + READ_BATCH))) texts.set(id, t);
    }
    return nodes.map((i) => {
      const entry = tree.entry(i);
      const text = texts.get(entry.id) ?? '{}';
      const raw = parsedObject(text) ?? {}; // archived as an event, so it parsed once
      let attrs = lineAttrs(raw) ?? {};
      if (isCliEnvelope(raw as RawLogEntry)) {
        const start = startIds.get(entry.id);
        attrs = cliExportAttrs(raw.type as string, attrs, startArgumentsOf(start === undefined ? null : parsedObject(texts.get(start))));
      }
      return { entry, raw, rawText: text, attrs, depth: tree.depth[i] };
    });
  };
  const readAt = (positions: number[]): ExportSpan[] => {
    const { runs, idOfNode } = idsOnce();
    return linesAt(positions).map((line, j) => {
      const i = wanted[positions[j]];
      let p = tree.parent[i];
      while (p >= 0 && !idOfNode.has(p)) p = tree.parent[p];
      return { ...line, rIdx: runs.get(line.entry.id) ?? 0, spanId: idOfNode.get(i)!, parentSpanId: p >= 0 ? idOfNode.get(p)! : null };
    });
  };
  const source = ((db.prepare('SELECT source FROM sessions WHERE id = ?').get(tree.rootSessionId) as { source: SessionSource } | undefined)?.source ?? 'vscode') as SessionSource;
  return {
    rootSessionId: tree.rootSessionId,
    source,
    traceId,
    length: wanted.length,
    entry: (k) => tree.entry(wanted[k]),
    type: (k) => tree.type(wanted[k]),
    depth: (k) => tree.depth[wanted[k]],
    positionOf: (eventId) => {
      const i = tree.indexOf(eventId);
      return i === undefined ? null : positionIn(wanted, i); // wanted ascends (tree order)
    },
    linesAt,
    readAt,
    lines: (from, to) => linesAt(positions(from, Math.min(to, wanted.length))),
    read: (from, to) => readAt(positions(from, Math.min(to, wanted.length))),
  };
}
