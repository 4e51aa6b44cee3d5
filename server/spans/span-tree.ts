// The span tree of one session and its child logs, built by pure functions (DESIGN house style 6).
// Lines are written when a span *ends* and `ts` is its *start* (FORMAT §4.8), so nothing here depends on line
// order: the whole set is indexed first, then linked, then sorted by start.
import { EntryColumns, NONE } from './entry-columns';
import { sortedOrder } from './sort-order';
import { NumberKeyMap } from './number-key-map';

/** One event as the tree needs it: the columns of `events`, no attrs. */
export interface SpanEntry {
  /** events.id (= lines.id): unique, and the line order inside one file */
  id: number;
  /** the session whose log file holds the line */
  sessionId: string;
  type: string;
  name: string;
  spanId: string | null;
  parentSpanId: string | null;
  /** 0 ok, 1 error */
  status: number;
  ts: number | null;
  dur: number;
  model: string | null;
  tool: string | null;
  ttft: number | null;
  tokensIn: number | null;
  tokensOut: number | null;
  /** 0 canonical, 1 replay copy from another session (shown), 2 repeat inside the same file (hidden) */
  dup: number;
  /** the VS Code run that wrote the line (rIdx, 0 when absent): each run numbers its spans from 1 again */
  rIdx?: number;
}

export interface SpanNode {
  entry: SpanEntry;
  depth: number;
  /** pre-order index of the parent; -1 for a root */
  parent: number;
  childCount: number;
  /** every node below this one: the subtree is nodes[i + 1 .. i + size] */
  size: number;
  /** latest end (ts + dur) in the subtree, null when nothing in it has a time */
  subtreeEnd: number | null;
  /** its parentSpanId named nothing in the tree (or a cycle had to be broken here): shown as a root */
  orphan: boolean;
  /** placed by the shape of its span id (turn_start-<agent>-<n>, agent-msg-<chat>), not by its parentSpanId */
  inferredParent: boolean;
  /** the entry point of a child session's work (its subagent span, or the child log's session_start) */
  childBranch: boolean;
}

export interface SpanTreeStats {
  events: number;
  roots: number;
  orphans: number;
  hiddenRepeats: number;
  /** Copilot CLI starts (tool, subagent, hook) folded into their completion: one span per call */
  mergedStarts: number;
  replays: number;
  errors: number;
  maxDepth: number;
  sessions: number;
}

const ORPHAN = 1;
const INFERRED = 2;
const CHILD_BRANCH = 4;

/**
 * The tree as packed columns indexed by pre-order position (issue 19.3): a node costs a few typed-array slots,
 * not an object, and its entry lives in `rows` (EntryColumns). `node(i)` and `entry(i)` materialize one on
 * demand; hot loops read the columns.
 */
export class SpanTree {
  readonly length: number;
  /** ids in ascending order and the node of each (-1: a row left out of the tree) */
  private readonly sortedIds: Float64Array;
  private readonly nodeOfSorted: Int32Array;

  constructor(
    readonly rootSessionId: string,
    /** the entries the tree was built from (all of them, hidden repeats included) */
    readonly rows: EntryColumns,
    /** node i → its row in `rows` */
    readonly order: Uint32Array,
    /** pre-order index of the parent; -1 for a root */
    readonly parent: Int32Array,
    readonly depth: Int32Array,
    readonly childCount: Int32Array,
    /** every node below node i: the subtree is i + 1 .. i + size[i] */
    readonly size: Int32Array,
    /** latest end in the subtree; NaN when nothing in it has a time */
    private readonly subtreeEndAt: Float64Array,
    private readonly flags: Uint8Array,
    readonly stats: SpanTreeStats,
  ) {
    const n = order.length;
    this.length = n;
    let ascending = true;
    for (let k = 1; k < rows.length && ascending; k++) if (rows.id[k] <= rows.id[k - 1]) ascending = false;
    if (ascending) {
      // The loader's rows come in id order: search them and map row -> node (no sort, 4 bytes a row).
      this.sortedIds = rows.id;
      this.nodeOfSorted = new Int32Array(rows.length).fill(-1);
      for (let i = 0; i < n; i++) this.nodeOfSorted[order[i]] = i;
    } else {
      const ids = new Float64Array(n);
      for (let i = 0; i < n; i++) ids[i] = rows.id[order[i]];
      const byId = sortedOrder(ids);
      this.nodeOfSorted = Int32Array.from(byId);
      this.sortedIds = new Float64Array(n);
      for (let k = 0; k < n; k++) this.sortedIds[k] = ids[byId[k]];
    }
  }

  entry(i: number): SpanEntry {
    return this.rows.at(this.order[i]);
  }
  /** events.id of node i */
  id(i: number): number {
    return this.rows.id[this.order[i]];
  }
  type(i: number): string {
    return this.rows.type(this.order[i]);
  }
  status(i: number): number {
    return this.rows.status[this.order[i]];
  }
  dup(i: number): number {
    return this.rows.dup[this.order[i]];
  }
  sessionId(i: number): string {
    return this.rows.sessionId(this.order[i]);
  }
  name(i: number): string {
    return this.rows.name(this.order[i]);
  }
  model(i: number): string | null {
    return this.rows.model(this.order[i]);
  }
  tool(i: number): string | null {
    return this.rows.tool(this.order[i]);
  }
  dur(i: number): number {
    return this.rows.dur[this.order[i]];
  }
  subtreeEnd(i: number): number | null {
    const v = this.subtreeEndAt[i];
    return Number.isNaN(v) ? null : v;
  }
  childBranch(i: number): boolean {
    return (this.flags[i] & CHILD_BRANCH) !== 0;
  }
  node(i: number): SpanNode {
    const f = this.flags[i];
    return {
      entry: this.entry(i),
      depth: this.depth[i],
      parent: this.parent[i],
      childCount: this.childCount[i],
      size: this.size[i],
      subtreeEnd: this.subtreeEnd(i),
      orphan: (f & ORPHAN) !== 0,
      inferredParent: (f & INFERRED) !== 0,
      childBranch: (f & CHILD_BRANCH) !== 0,
    };
  }
  /** the node of events.id `id`, if it is in the tree */
  indexOf(id: number): number | undefined {
    let lo = 0;
    let hi = this.sortedIds.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = this.sortedIds[mid];
      if (v === id) return this.nodeOfSorted[mid] >= 0 ? this.nodeOfSorted[mid] : undefined;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }
  /** smallest and largest events.id in the tree (null when empty) */
  idRange(): [number, number] | null {
    if (this.length === 0) return null;
    let lo = 0;
    let hi = this.sortedIds.length - 1;
    while (this.nodeOfSorted[lo] < 0) lo++;
    while (this.nodeOfSorted[hi] < 0) hi--;
    return [this.sortedIds[lo], this.sortedIds[hi]];
  }
}

/** Every node materialized, in pre-order (tests and small trees). */
export function allNodes(tree: SpanTree): SpanNode[] {
  const out: SpanNode[] = [];
  for (let i = 0; i < tree.length; i++) out.push(tree.node(i));
  return out;
}

export interface BuildOptions {
  /** the session the tree is for; entries of any other session come from its child logs */
  rootSessionId?: string;
  /** child session id → the tool span that started it (sessions.parent_span_id), when the entries lack the ref */
  childLinks?: ReadonlyMap<string, string>;
  /**
   * The root session is itself a child (a subagent opened on its own): the span that started it lives in the
   * parent's file, so entries naming it are the tree's roots, not orphans. The span id when known; else the
   * parentSpanId of the root session's `subagent` entry is taken as that span.
   */
  rootLink?: string | null;
  rootIsChild?: boolean;
}

/**
 * Which entry stands for a span id when several share it. A real span (model call, tool, subagent, hook…)
 * beats the `user_message` event emitted on its invoke_agent span, which beats synthetic ids.
 */
function ownerRank(type: string): number {
  switch (type) {
    case 'user_message':
      return 1;
    case 'agent_response':
    case 'turn_start':
    case 'turn_end':
    case 'session_start':
    case 'child_session_ref':
      return 2;
    default:
      return 0;
  }
}

// The code writes `turn_start-<id>-<n>`, the troubleshoot skill's example `turn-start-<id>-<n>` (FORMAT §10.3).
const TURN_PREFIX = /^turn[_-](?:start|end)-(.+)-[^-]*$/;

/** `turn_start-<agentSpanId>-<turnId>` (or `turn-start-…`): turn events hang off the agent span, named only in their own id. */
export function turnAgentSpan(spanId: string | null): string | null {
  if (spanId === null) return null;
  const m = TURN_PREFIX.exec(spanId);
  return m ? m[1] : null;
}

/**
 * Copilot CLI writes a tool call, a subagent and a hook as two lines, a start and a completion with the same
 * span id (normalize-cli.ts); the completion is the span (status, result, duration from the start). A start
 * without its completion stays: the call is still running, or never finished.
 */
const CLI_COMPLETION_OF: Readonly<Record<string, string>> = { 'tool.execution_start': 'tool_call', 'subagent.started': 'subagent', 'hook.start': 'hook' };
/** the completion types, each once */
const CLI_COMPLETIONS = [...new Set(Object.values(CLI_COMPLETION_OF))];

export function isCliStart(type: string): boolean {
  return Object.hasOwn(CLI_COMPLETION_OF, type);
}

/**
 * Keys for (session, span id) pairs and (session, run, span id) triples from the strings' keys: one number each
 * while the product fits in a double's 53 bits (always, short of tens of millions of distinct strings), else a
 * string. A tree of 254k events built three Maps of composite strings (~60 MB of transient heap).
 */
/** What the owner lookups need of a map from a key to a row index: a Map, or a NumberKeyMap for number keys. */
interface RowIndex<K> {
  get(key: K): number | undefined;
  set(key: K, value: number): void;
  has(key: K): boolean;
  clear(): void;
}

export function pairKeys(stringCount: number, extra: number): (a: number, b: number, c?: number) => number | string {
  const s = stringCount + 1;
  if (s * s * extra < Number.MAX_SAFE_INTEGER) return (a, b, c = 0) => (c * s + a) * s + b;
  return (a, b, c = 0) => `${c}:${a}:${b}`;
}

/** Rows that are CLI starts whose completion (same session, completion type, span id) is there too. */
function completedStarts(rows: EntryColumns): (k: number) => boolean {
  let any = false;
  for (let k = 0; k < rows.length && !any; k++) if (isCliStart(rows.type(k))) any = true;
  if (!any) return () => false;
  // a completion is keyed (session, span, code), the code being the completion type's place in CLI_COMPLETIONS
  const completionKeys = new Map(CLI_COMPLETIONS.map((t, code) => [rows.keyOf(t), code]));
  const key = pairKeys(rows.stringCount, CLI_COMPLETIONS.length);
  const done = new Set<number | string>();
  for (let k = 0; k < rows.length; k++) {
    const code = completionKeys.get(rows.typeKey(k));
    if (code !== undefined && rows.spanIdKey(k) !== NONE && rows.dup[k] < 2) done.add(key(rows.sessionKey(k), rows.spanIdKey(k), code));
  }
  const codeOfStart = new Map(Object.entries(CLI_COMPLETION_OF).map(([start, completion]) => [start, CLI_COMPLETIONS.indexOf(completion)]));
  return (k) => {
    if (rows.spanIdKey(k) === NONE) return false;
    const code = codeOfStart.get(rows.type(k));
    return code !== undefined && done.has(key(rows.sessionKey(k), rows.spanIdKey(k), code));
  };
}

/**
 * Builds the span tree (FORMAT §3.5). Parent of an entry, first rule that applies:
 *  1. `dup = 2` (a repeat inside one file): left out, counted in `hiddenRepeats`; a CLI start whose completion
 *     is there: left out (the completion is the span), counted in `mergedStarts`.
 *  2. `turn_start`/`turn_end`: the agent span named inside their spanId (their parentSpanId is the agent's
 *     *parent*, FORMAT §3.2).
 *  3. a `user_message` whose span is a real span of another entry (the subagent's invoke_agent): that entry.
 *  4. the entry that owns `parentSpanId`, in the entry's own file first, then in any file of the session
 *     (parentSpanId crosses files; ids can repeat across files); in a child log, the span its parent's ref
 *     names as the child's start is the tool call in the parent's file.
 *  5. in a child log: that log's first `session_start` (its anchor) adopts entries left without a parent,
 *     and the anchor itself goes under the tool span that started the child (child_session_ref
 *     `child-ref-<id>`.parentSpanId, else `childLinks`). A child with no tool span (title, categorization,
 *     summarize) is thereby a small branch of its own at the root. A child opened on its own keeps the
 *     entries that name its starting span (`rootLink`) as roots; its anchor adopts the rest.
 *  6. `agent_response` (`agent-msg-<chat>`) still without a parent: beside its model call (or under it
 *     when the model call is a root itself).
 *  Rules 2 and 6 place an entry by the shape of its span id: such a node is `inferredParent` (unless its
 *  parentSpanId names the same parent), so the UI can say the link is ours, not the log's.
 *  7. otherwise a root; an orphan if it named a parent that is not there (except the span that started a
 *     child session opened on its own, `rootLink`). A cycle (bad data) is broken at its earliest entry,
 *     which becomes an orphan root.
 * Children (and roots) are sorted by start, then line order. Output: pre-order with depth.
 */
export function buildSpanTree(input: readonly SpanEntry[] | EntryColumns, opts: BuildOptions = {}): SpanTree {
  const rows = input instanceof EntryColumns ? input : EntryColumns.of(input);
  // The rules below read the columns through `live` (tree-candidate index → row) and compare strings by their keys.
  const merged = completedStarts(rows);
  let mergedStarts = 0;
  let liveRows: number[] = [];
  for (let k = 0; k < rows.length; k++) {
    if (rows.dup[k] >= 2) continue;
    if (merged(k)) {
      mergedStarts++;
      continue;
    }
    liveRows.push(k);
  }
  // Line order (id) breaks ties between equal starts: index order must be id order.
  for (let i = 1; i < liveRows.length; i++) {
    if (rows.id[liveRows[i]] < rows.id[liveRows[i - 1]]) {
      liveRows = [...liveRows].sort((a, b) => rows.id[a] - rows.id[b]);
      break;
    }
  }
  const live = Uint32Array.from(liveRows);
  liveRows = [];
  const hiddenRepeats = rows.length - live.length - mergedStarts;
  const n = live.length;
  const rootSessionId = opts.rootSessionId ?? (n > 0 ? rows.sessionId(live[0]) : '');
  const rootK = rows.keyOf(rootSessionId);
  const sessionOf = (i: number) => rows.sessionKey(live[i]);
  const typeOf = (i: number) => rows.type(live[i]);
  const spanOf = (i: number) => rows.spanIdKey(live[i]);
  const parentSpanOf = (i: number) => rows.parentSpanIdKey(live[i]);

  // Span ids are counters that restart with every window reload (FORMAT §10.2), and fixtures restart them in each
  // log, so a resumed run or a child log may reuse ids: a name is looked up in the run of the log of the entry
  // naming it first, then in that log, then in every log (`ownerIn`).
  let maxRun = 0;
  for (let i = 0; i < n; i++) maxRun = Math.max(maxRun, rows.run(live[i]));
  const key = pairKeys(rows.stringCount, maxRun + 1);
  // Typed-array maps (number-key-map.ts) unless the composite keys outgrew whole doubles and are strings.
  const numericKeys = typeof key(0, 0) === 'number';
  const owner = new NumberKeyMap(n);
  const local: RowIndex<number | string> = numericKeys ? (new NumberKeyMap(n) as RowIndex<number | string>) : new Map<number | string, number>();
  const run: RowIndex<number | string> = numericKeys ? (new NumberKeyMap(n) as RowIndex<number | string>) : new Map<number | string, number>();
  const keep = <K>(map: RowIndex<K>, k: K, i: number) => {
    const cur = map.get(k);
    if (cur === undefined) {
      map.set(k, i);
      return;
    }
    const e = live[i];
    const c = live[cur];
    const better = ownerRank(rows.type(e)) - ownerRank(rows.type(c)) || rows.dup[e] - rows.dup[c] || rows.id[e] - rows.id[c];
    if (better < 0) map.set(k, i);
  };
  for (let i = 0; i < n; i++) {
    const span = spanOf(i);
    if (span === NONE) continue;
    keep(owner, span, i);
    keep(local, key(sessionOf(i), span), i);
    keep(run, key(sessionOf(i), span, rows.run(live[i])), i);
  }
  /** the entry that owns span `span` (a key) as entry i sees it */
  const ownerIn = (i: number, span: number): number | undefined =>
    span === NONE ? undefined : (run.get(key(sessionOf(i), span, rows.run(live[i]))) ?? local.get(key(sessionOf(i), span)) ?? owner.get(span));

  // Child logs: each one's anchor (first session_start) and the tool span that started it, by session key.
  const anchor = new Map<number, number>();
  const toolLink = new Map<number, number>();
  /** child session → the span (key) of the tool call that started it, as its parent's ref names it */
  const startSpan = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const type = typeOf(i);
    const session = sessionOf(i);
    if ((session !== rootK || opts.rootIsChild) && type === 'session_start') {
      const cur = anchor.get(session);
      if (cur === undefined || rows.id[live[cur]] > rows.id[live[i]]) anchor.set(session, i);
    }
    if (type === 'child_session_ref' && parentSpanOf(i) !== NONE) {
      const spanId = rows.spanId(live[i]);
      if (!spanId?.startsWith('child-ref-')) continue;
      const tool = ownerIn(i, parentSpanOf(i));
      // a child no row belongs to has no key: nothing in this tree asks for its link
      const child = rows.keyOf(spanId.slice('child-ref-'.length));
      if (child === NONE) continue;
      startSpan.set(child, parentSpanOf(i));
      if (tool !== undefined) toolLink.set(child, tool);
    }
  }
  for (const [sid, span] of opts.childLinks ?? []) {
    const child = rows.keyOf(sid);
    if (child === NONE) continue;
    const spanK = rows.keyOf(span);
    const tool = owner.get(spanK);
    // a span no row names is NONE, which no comparison with a row's parentSpanId accepts (those are never NONE)
    if (!startSpan.has(child)) startSpan.set(child, spanK);
    if (tool !== undefined && !toolLink.has(child)) toolLink.set(child, tool);
  }

  // NONE: no link, or one no row's parentSpanId names (the comparisons below only ask rows that have a parentSpanId)
  let rootLinkK = rows.keyOf(opts.rootLink);
  if ((opts.rootLink ?? null) === null && opts.rootIsChild) {
    for (let i = 0; i < n && rootLinkK === NONE; i++) {
      if (sessionOf(i) === rootK && typeOf(i) === 'subagent' && parentSpanOf(i) !== NONE && !owner.has(parentSpanOf(i))) rootLinkK = parentSpanOf(i);
    }
  }

  const parentOf = new Int32Array(n).fill(-1);
  const orphanFlag = new Uint8Array(n);
  const inferredFlag = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const type = typeOf(i);
    const session = sessionOf(i);
    const parentSpan = parentSpanOf(i);
    let p = -1;
    if (type === 'turn_start' || type === 'turn_end') {
      const agent = turnAgentSpan(rows.spanId(live[i]));
      const o = agent === null ? undefined : ownerIn(i, rows.keyOf(agent));
      if (o !== undefined && o !== i) {
        p = o;
        if (parentSpan === NONE || ownerIn(i, parentSpan) !== o) inferredFlag[i] = 1;
      }
    }
    if (p < 0 && type === 'user_message' && spanOf(i) !== NONE) {
      const o = ownerIn(i, spanOf(i));
      if (o !== undefined && o !== i && typeOf(o) !== 'user_message') p = o;
    }
    if (p < 0 && parentSpan !== NONE) {
      // In a child log, the span that started it lives in the parent's log, whatever the child's own ids are.
      const start = session !== rootK && startSpan.get(session) === parentSpan ? toolLink.get(session) : undefined;
      const o = start ?? ownerIn(i, parentSpan);
      if (o !== undefined && o !== i) p = o;
    }
    if (p < 0 && session !== rootK) {
      const a = anchor.get(session);
      const link = toolLink.get(session);
      if (a === i) p = link ?? -1;
      else p = a ?? link ?? -1;
    } else if (p < 0 && opts.rootIsChild && (parentSpan === NONE || parentSpan !== rootLinkK)) {
      // A child opened on its own: its session_start adopts what has no parent, except its entry points.
      const a = anchor.get(session);
      if (a !== undefined && a !== i) p = a;
    }
    parentOf[i] = p;
  }
  for (let i = 0; i < n; i++) {
    if (parentOf[i] >= 0) continue;
    const spanId = rows.spanId(live[i]);
    if (typeOf(i) === 'agent_response' && spanId?.startsWith('agent-msg-')) {
      const chat = ownerIn(i, rows.keyOf(spanId.slice('agent-msg-'.length)));
      if (chat !== undefined && chat !== i) {
        parentOf[i] = parentOf[chat] >= 0 && parentOf[chat] !== i ? parentOf[chat] : chat;
        inferredFlag[i] = 1;
      }
    }
    if (parentOf[i] < 0 && parentSpanOf(i) !== NONE && parentSpanOf(i) !== rootLinkK) orphanFlag[i] = 1;
  }
  owner.clear();
  local.clear();
  run.clear();

  // Children in start order: one sort of everything, then a stable bucket per parent (CSR arrays).
  // Untimed entries sort last: a key past every real start.
  let latest = 0;
  for (let i = 0; i < n; i++) if (rows.ts[live[i]] > latest) latest = rows.ts[live[i]];
  const starts = new Float64Array(n);
  for (let i = 0; i < n; i++) starts[i] = Number.isNaN(rows.ts[live[i]]) ? latest + 1 : rows.ts[live[i]];
  const byStart = sortedOrder(starts);
  const childStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) if (parentOf[i] >= 0) childStart[parentOf[i] + 1]++;
  for (let i = 0; i < n; i++) childStart[i + 1] += childStart[i];
  const fill = childStart.slice(0, n);
  const children = new Int32Array(Math.max(0, childStart[n]));
  const roots: number[] = [];
  for (const i of byStart) {
    const p = parentOf[i];
    if (p >= 0) children[fill[p]++] = i;
    else roots.push(i);
  }

  const order = new Uint32Array(n);
  const parentAt = new Int32Array(n);
  const depthAt = new Int32Array(n);
  const childCount = new Int32Array(n);
  const size = new Int32Array(n);
  const subtreeEnd = new Float64Array(n);
  const flags = new Uint8Array(n);
  let count = 0;
  const visited = new Uint8Array(n);
  // (entry index, depth, parent node) triples
  const stack: number[] = [];
  const walk = (start: number) => {
    stack.push(start, 0, -1);
    while (stack.length > 0) {
      const parent = stack.pop()!;
      const depth = stack.pop()!;
      const i = stack.pop()!;
      if (visited[i]) continue;
      visited[i] = 1;
      const here = count++;
      const k = live[i];
      order[here] = k;
      parentAt[here] = parent;
      depthAt[here] = depth;
      // NaN when untimed
      subtreeEnd[here] = rows.ts[k] + rows.dur[k];
      flags[here] =
        (orphanFlag[i] === 1 ? ORPHAN : 0) |
        (inferredFlag[i] === 1 ? INFERRED : 0) |
        (sessionOf(i) !== rootK && (typeOf(i) === 'subagent' || anchor.get(sessionOf(i)) === i) ? CHILD_BRANCH : 0);
      if (parent >= 0) childCount[parent]++;
      for (let k = childStart[i + 1] - 1; k >= childStart[i]; k--) {
        const c = children[k];
        if (!visited[c]) stack.push(c, depth + 1, here);
      }
    }
  };
  for (const r of roots) walk(r);
  // Whatever is left sits on a parent cycle: break each at its earliest entry.
  for (const i of byStart) {
    if (visited[i]) continue;
    orphanFlag[i] = 1;
    const before = count;
    walk(i);
    flags[before] = (flags[before] | ORPHAN) & ~INFERRED;
  }

  let maxDepth = 0;
  for (let i = count - 1; i >= 0; i--) {
    if (depthAt[i] > maxDepth) maxDepth = depthAt[i];
    const p = parentAt[i];
    if (p < 0) continue;
    size[p] += size[i] + 1;
    const end = subtreeEnd[i];
    if (!Number.isNaN(end) && (Number.isNaN(subtreeEnd[p]) || end > subtreeEnd[p])) subtreeEnd[p] = end;
  }

  let rootCount = 0;
  let orphans = 0;
  let replays = 0;
  let errors = 0;
  const sessions = new Set<string>();
  for (let i = 0; i < count; i++) {
    const k = order[i];
    if (parentAt[i] < 0) rootCount++;
    if (flags[i] & ORPHAN) orphans++;
    if (rows.dup[k] === 1) replays++;
    if (rows.status[k] === 1) errors++;
    sessions.add(rows.sessionId(k));
  }
  const stats = { events: count, roots: rootCount, orphans, hiddenRepeats, mergedStarts, replays, errors, maxDepth, sessions: sessions.size };
  rows.seal();
  return new SpanTree(rootSessionId, rows, order, parentAt, depthAt, childCount, size, subtreeEnd, flags, stats);
}

/** Pre-order indices of the ancestors of node `i`, nearest first. */
export function ancestorsOf(tree: SpanTree, i: number): number[] {
  const out: number[] = [];
  for (let p = i >= 0 && i < tree.length ? tree.parent[i] : -1; p >= 0; p = tree.parent[p]) out.push(p);
  return out;
}
