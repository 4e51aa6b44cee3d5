import type Database from 'better-sqlite3';
import { WINDOW_MS } from '../../shared/api/common';
import type { MatchKind, SearchGroup, SearchHit, SearchQuery, SearchResponse, SearchSession, SearchTerm } from '../../shared/api/search';
import { sessionEventCounts } from '../counts/session-events';
import { decodeCursor, encodeCursor, foreignCursor } from '../http/cursor';
import { ApiError } from '../http/errors';
import { searchLag } from '../search-index/search-lag';
import { FIRST_PAGE_LIMITS, UNLIMITED, scanEventHits, type HitGroup, type ScanLimits } from './event-hits';
import type { IdSegment } from '../db/id-order';
import { foldWhitespace } from './indexed-text';
import {
  FILTER_KEYS,
  QuerySyntaxError,
  hasEventFilters,
  parseQuery,
  positiveTerms,
  type ParsedQuery,
  type QueryTerm,
} from './query-parser';
import { WEIGHTS, compareSessions, groupByRepository, kindOf, relevance, weightClassOf, type WeightClass } from './rank';
import { sessionDirectory, type SessionDirectory, type SessionInfo } from './session-directory';
import { narrowScope, passesSessionFilters, sessionScope } from './session-scope';
import { ALL_SIDE_ROWS, fileHits, metaHits, metaText, refHits, refsEqual, sessionsWithFile, SIDE_CAP, type FileHit, type RefHit } from './side-hits';
import { companionText, eventIndexedText, eventPromptText, makeSnippet } from './snippet';
import { PROMPT_CAP, companionHits, promptHits, type CompanionHit } from './prompt-hits';
import { plucked } from '../db/statements';

/** Hits listed per session (the first is the snippet shown); each links to its event. */
const HITS_PER_SESSION = 3;

interface EventCandidate {
  hit: HitGroup;
  inSubagent: boolean;
  sessionId: string;
  /** 'prompt' when the match is in a prompt text the event sent, not in the event's own text */
  kind: MatchKind;
}

/** Everything one top-level session matched, its subagents' matches rolled in. */
interface SessionMatches {
  root: SessionInfo;
  kinds: Map<MatchKind, number>;
  weights: Map<WeightClass, number>;
  subagentHits: number;
  /** per weight class, the earliest matching event (the first mention reads best) */
  firstByClass: Map<WeightClass, EventCandidate>;
  meta: string | null;
  /** the first subagent whose id, title or label matched: shown as the hit when nothing of the session's own is */
  subagentMeta: { sessionId: string; text: string } | null;
  files: FileHit[];
  refs: RefHit[];
  companions: CompanionHit[];
  score: number;
  num: number;
  lastTs: number | null;
  repository: string | null;
}

function badQuery(message: string): ApiError {
  return new ApiError(400, 'bad_query', message);
}

/** Parse and check that the query can run; every refusal says what to change. */
export function parseSearch(text: string): ParsedQuery {
  let q: ParsedQuery;
  try {
    q = parseQuery(text);
  } catch (err) {
    if (err instanceof QuerySyntaxError) throw badQuery(err.message);
    throw err;
  }
  const pos = positiveTerms(q);
  const anyFilter = FILTER_KEYS.some((k) => (q[k] as unknown[]).length > 0);
  if (q.terms.length === 0 && !anyFilter) throw badQuery('type something to search for: a word (3+ characters, or 1+ in Chinese, Japanese or Korean), a "phrase", file:PATH or ref:NUMBER.');
  if (pos.length === 0 && q.terms.length > 0) throw badQuery(`add a word to search for: "-${q.terms[0].text}" only excludes.`);
  if (pos.length === 0 && q.file.length === 0 && q.ref.length === 0) {
    throw badQuery('add a word to search for: repo:, branch:, type:, tool:, model: and status: only narrow a search (file: and ref: can search on their own).');
  }
  if (pos.length === 0 && hasEventFilters(q)) {
    throw badQuery('type:, tool:, model: and status: narrow the events a word is found in: add a word to search for.');
  }
  return q;
}

/** The ids a first page read, in a cursor: `lo-hi-a` (a backfill's run, read upwards) or `lo-hi-d`, comma-separated. */
function encodeRanges(read: IdSegment[]): string {
  return read.map((r) => `${r.lo}-${r.hi}-${r.newestFirst ? 'a' : 'd'}`).join(',');
}

function decodeRanges(v: string | number | null): IdSegment[] {
  if (v === '' || v === 0) return [];
  const out: IdSegment[] = [];
  for (const part of String(v).split(',')) {
    const m = /^(\d+)-(\d+)-([ad])$/.exec(part);
    if (!m) throw foreignCursor();
    out.push({ lo: Number(m[1]), hi: Number(m[2]), newestFirst: m[3] === 'a' });
  }
  return out;
}

/** Ties a cursor to the query it was made for. */
function queryKey(input: SearchQuery): string {
  const text = `${input.q}\u0000${input.window}\u0000${input.sort}\u0000${input.depth}`;
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}

/**
 * Search every session. Events are read from the FTS indexes newest rowid first within a budget
 * (FIRST_PAGE_LIMITS), grouped by top-level session, ranked (server/search/rank.ts), grouped by repository;
 * snippets are made only for the sessions on the page. Totals are exact when every match was read, else a
 * lower bound (`totals.exact = false`); `depth=all` reads everything.
 */
export function searchSessions(db: Database.Database, input: SearchQuery, now = Date.now(), firstPage: ScanLimits = FIRST_PAGE_LIMITS): SearchResponse {
  const started = performance.now();
  const q = parseSearch(input.q);
  const key = queryKey(input);
  const cursor = decodeCursor(input.cursor, 4);
  if (cursor && cursor[0] !== key) throw new ApiError(400, 'bad_cursor', 'this cursor belongs to another query: start again without it');
  // A later page: the ids the first page read ('' when it read every match).
  const readBefore = cursor ? decodeRanges(cursor[1]) : null;
  const offset = cursor ? Number(cursor[3]) : 0;
  const span = WINDOW_MS[input.window];
  const since = span === null ? null : now - span;

  // A later page reads exactly the range the first page read, so that pages neither overlap nor skip.
  let limits: ScanLimits = input.depth === 'all' ? UNLIMITED : firstPage;
  if (readBefore !== null) limits = readBefore.length > 0 ? { ...UNLIMITED, ranges: readBefore, chunk: firstPage.chunk } : { ...UNLIMITED, chunk: firstPage.chunk };

  const dir = sessionDirectory(db);
  // repo: (with branch: and source:) reads only the lines of the sessions it can keep (events, paths, refs, prompts)
  const scope = sessionScope(db, q);
  const within = scope?.segments ?? null;

  // Session-level filters apply to the top-level session (a subagent's own row has no repository).
  let sideCapped = false;
  const sideCap = input.depth === 'all' ? ALL_SIDE_ROWS : SIDE_CAP;
  const fileRoots = q.file.length > 0 ? new Set<number>() : null;
  const fileRows: FileHit[] = [];
  for (const v of q.file) {
    const r = sessionsWithFile(db, v, sideCap, within);
    sideCapped ||= r.capped;
    fileRows.push(...r.rows);
  }
  const refRows: RefHit[] = [];
  for (const v of q.ref) {
    const r = refsEqual(db, v, sideCap, within);
    sideCapped ||= r.capped;
    refRows.push(...r.rows);
  }
  dir.loadIds([...fileRows.map((f) => f.sessionId), ...refRows.map((r) => r.sessionId)]);
  const rootNumOfId = (id: string) => {
    const s = dir.getById(id);
    return s ? dir.rootOf(s.num)?.num : undefined;
  };
  for (const f of fileRows) {
    const n = rootNumOfId(f.sessionId);
    if (n !== undefined) fileRoots?.add(n);
  }
  const refRoots = q.ref.length > 0 ? new Set(refRows.map((r) => rootNumOfId(r.sessionId)).filter((n): n is number => n !== undefined)) : null;
  // file: and ref: name their sessions too: when their lines are a few ranges, the events are read there only
  const named = fileRoots !== null && refRoots !== null ? new Set([...fileRoots].filter((n) => refRoots.has(n))) : (fileRoots ?? refRoots);
  const scanScope = (named !== null ? narrowScope(db, scope, named) : null) ?? scope;
  const scan = positiveTerms(q).length > 0 ? scanEventHits(db, q, since, limits, scanScope) : { groups: [], events: 0, exhausted: true, scanned: 0, read: [] };
  dir.loadNums(scan.groups.map((h) => h.sessionNum));
  const sessionPasses = (root: SessionInfo): boolean =>
    passesSessionFilters(q, root) &&
    (fileRoots === null || fileRoots.has(root.num)) &&
    (refRoots === null || refRoots.has(root.num));
  const sideInWindow = (root: SessionInfo) => since === null || (root.lastTs !== null && root.lastTs >= since);

  const matches = new Map<number, SessionMatches>();
  const entry = (root: SessionInfo): SessionMatches => {
    let m = matches.get(root.num);
    if (!m) {
      m = {
        root,
        kinds: new Map(),
        weights: new Map(),
        subagentHits: 0,
        firstByClass: new Map(),
        meta: null,
        subagentMeta: null,
        files: [],
        refs: [],
        companions: [],
        score: 0,
        num: root.num,
        lastTs: root.lastTs,
        repository: root.repository,
      };
      matches.set(root.num, m);
    }
    return m;
  };
  const bump = <K>(map: Map<K, number>, k: K, n = 1) => map.set(k, (map.get(k) ?? 0) + n);

  let events = 0;
  for (const hit of scan.groups) {
    const own = dir.get(hit.sessionNum);
    const root = dir.rootOf(hit.sessionNum);
    if (!own || !root || !sessionPasses(root)) continue;
    events += hit.n;
    const m = entry(root);
    const inSubagent = own.num !== root.num;
    if (inSubagent) m.subagentHits += hit.n;
    bump(m.kinds, kindOf(hit.type, hit.status), hit.n);
    const cls = weightClassOf(hit.type, hit.status);
    bump(m.weights, cls, hit.n);
    const prev = m.firstByClass.get(cls);
    if (!prev || (hit.firstTs ?? Infinity) < (prev.hit.firstTs ?? Infinity)) m.firstByClass.set(cls, { hit, inSubagent, sessionId: own.id, kind: kindOf(hit.type, hit.status) });
  }

  // Titles, paths and refs are not events: type:/tool:/model:/status: leave them out.
  if (!hasEventFilters(q)) {
    const addFile = (f: FileHit) => {
      const s = dir.getById(f.sessionId);
      const root = s && dir.rootOf(s.num);
      if (!root || !sessionPasses(root) || !sideInWindow(root)) return;
      const m = entry(root);
      bump(m.kinds, 'file');
      bump(m.weights, 'file');
      if (m.files.length < HITS_PER_SESSION) m.files.push(f);
    };
    const addRef = (r: RefHit) => {
      const s = dir.getById(r.sessionId);
      const root = s && dir.rootOf(s.num);
      if (!root || !sessionPasses(root) || !sideInWindow(root)) return;
      const m = entry(root);
      bump(m.kinds, 'ref');
      bump(m.weights, 'ref');
      if (m.refs.length < HITS_PER_SESSION) m.refs.push(r);
    };
    if (positiveTerms(q).length > 0) {
      const meta = metaHits(db, q, sideCap);
      const files = fileHits(db, q, sideCap, within);
      const refs = refHits(db, q, sideCap, within);
      sideCapped ||= meta.capped || files.capped || refs.capped;
      dir.loadNums(meta.rows.map((h) => h.num));
      dir.loadIds([...files.rows.map((f) => f.sessionId), ...refs.rows.map((r) => r.sessionId)]);
      for (const h of meta.rows) {
        const root = dir.rootOf(h.num);
        if (!root || !sessionPasses(root) || !sideInWindow(root)) continue;
        const m = entry(root);
        // A child's title (e.g. a subagent's label) counts for its top-level session as a subagent match.
        if (root.num === h.num) {
          bump(m.kinds, 'meta');
          bump(m.weights, 'meta');
          m.meta = h.text;
        } else {
          bump(m.kinds, 'subagent');
          bump(m.weights, 'subagent');
          const child = dir.get(h.num);
          if (child) m.subagentMeta ??= { sessionId: child.id, text: h.text };
        }
      }
      files.rows.forEach(addFile);
      refs.rows.forEach(addRef);

      // Prompts and companion files: not events either (a prompt string is kept once for all the calls that sent
      // it). When the events alone filled the first page's budget (a common word), the page is a lower bound
      // already: they are left to depth=all and later pages, which read everything.
      const skipSide = !scan.exhausted && readBefore === null && input.depth !== 'all';
      const promptCap = input.depth === 'all' || readBefore !== null ? Infinity : PROMPT_CAP;
      const none = { rows: [], capped: true };
      const prompts = skipSide ? none : promptHits(db, q, since, promptCap, within);
      const companions = skipSide ? none : companionHits(db, q, promptCap);
      sideCapped ||= prompts.capped || companions.capped;
      dir.loadNums(prompts.rows.map((p) => p.sessionNum));
      dir.loadIds(companions.rows.map((c) => c.sessionId));
      for (const p of prompts.rows) {
        const own = dir.get(p.sessionNum);
        const root = dir.rootOf(p.sessionNum);
        if (!own || !root || !sessionPasses(root)) continue;
        const m = entry(root);
        bump(m.kinds, 'prompt', p.n);
        bump(m.weights, 'prompt', p.n);
        const hit: HitGroup = { sessionNum: p.sessionNum, type: 'llm_request', status: 0, n: p.n, firstTs: p.firstTs, firstId: p.firstId };
        const prev = m.firstByClass.get('prompt');
        if (!prev || (hit.firstTs ?? Infinity) < (prev.hit.firstTs ?? Infinity)) {
          m.firstByClass.set('prompt', { hit, inSubagent: own.num !== root.num, sessionId: own.id, kind: 'prompt' });
        }
      }
      for (const c of companions.rows) {
        const s = dir.getById(c.sessionId);
        const root = s && dir.rootOf(s.num);
        if (!root || !sessionPasses(root) || !sideInWindow(root)) continue;
        const m = entry(root);
        bump(m.kinds, c.kind);
        bump(m.weights, c.kind);
        if (m.companions.length < HITS_PER_SESSION) m.companions.push(c);
      }
    } else {
      // file: / ref: on their own: the paths and refs are the matches.
      fileRows.forEach(addFile);
      refRows.forEach(addRef);
    }
  }

  for (const m of matches.values()) m.score = relevance(m.weights, m.root.lastTs, now);
  const ranked = [...matches.values()].sort(compareSessions(input.sort));
  const groups = groupByRepository(ranked);
  const snippetTerms = snippetTermsOf(q);
  const cursorAt = (at: number) => encodeCursor([key, scan.exhausted ? '' : encodeRanges(scan.read), scan.exhausted ? 1 : 0, at]);

  // The page's groups with their sessions' matches first: the event counts of every session shown come from one
  // statement (one per session cost a sixth of a common word's search).
  let page: (Omit<SearchGroup, 'sessions'> & { shown: SessionMatches[] })[];
  let nextCursor: string | null = null;
  if (input.group !== undefined) {
    const wanted = input.group === '' ? null : input.group;
    const g = groups.find((x) => x.repository === wanted);
    const all = g?.sessions ?? [];
    const shown = all.slice(offset, offset + input.limit);
    const end = offset + shown.length;
    page = [{ repository: wanted, sessionCount: all.length, shown, more: all.length - end, nextCursor: end < all.length ? cursorAt(end) : null }];
  } else {
    page = [];
    let shownCount = 0;
    let i = offset;
    for (; i < groups.length && (shownCount < input.limit || page.length === 0); i++) {
      const g = groups[i];
      const shown = g.sessions.slice(0, input.perGroup);
      shownCount += shown.length;
      page.push({
        repository: g.repository,
        sessionCount: g.sessions.length,
        shown,
        more: g.sessions.length - shown.length,
        nextCursor: g.sessions.length > shown.length ? cursorAt(shown.length) : null,
      });
    }
    if (i < groups.length) nextCursor = cursorAt(i);
  }
  const counts = sessionEventCounts(db, page.flatMap((g) => g.shown.map((m) => m.root.id)));
  const pageGroups: SearchGroup[] = page.map(({ shown, ...g }) => ({
    ...g,
    sessions: shown.map((m) => sessionResult(db, dir, m, snippetTerms, counts.get(m.root.id) ?? 0)),
  }));

  return {
    query: {
      terms: q.terms.map((t): SearchTerm => ({ text: t.text, exclude: t.exclude, phrase: t.phrase, index: t.index })),
      filters: filtersOf(q),
      window: input.window,
      sort: input.sort,
    },
    totals: { sessions: matches.size, events, exact: scan.exhausted && !sideCapped, scannedEvents: scan.scanned },
    repositories: groups.map((g) => ({ repository: g.repository, sessions: g.sessions.length })),
    groups: pageGroups,
    nextCursor,
    notYetSearchable: searchLag(db).eventsBehind,
    tookMs: Math.round((performance.now() - started) * 10) / 10,
  };
}

function filtersOf(q: ParsedQuery): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const k of FILTER_KEYS) {
    const vals = k === 'ref' ? q.ref.map((r) => (r.type ? `${r.type}#${r.value}` : r.value)) : (q[k] as string[]);
    if (vals.length > 0) out[k] = vals;
  }
  return out;
}

interface SnippetTerms {
  /** in event text, prompts, companion files and titles */
  text: QueryTerm[];
  /** in the paths a session touched */
  paths: QueryTerm[];
}

/**
 * What to highlight: the required words, and the file: values (a path found by file: shows where), in event text too
 * (a path in a message) from 3 characters: a shorter value is a fragment of many words ("restar[ts]" for `file:ts`).
 */
function snippetTermsOf(q: ParsedQuery): SnippetTerms {
  const words = positiveTerms(q);
  const files = q.file.map((f): QueryTerm => ({ text: foldWhitespace(f), exclude: false, phrase: false, index: 'trigram' }));
  return { text: [...words, ...files.filter((f) => [...f.text].length >= 3)], paths: [...words, ...files] };
}

function sessionResult(db: Database.Database, dir: SessionDirectory, m: SessionMatches, snippetTerms: SnippetTerms, eventCount: number): SearchSession {
  const terms = snippetTerms.text;
  const hits: SearchHit[] = [];
  const classes = [...m.firstByClass.entries()].sort((a, b) => WEIGHTS[b[0]] - WEIGHTS[a[0]]);
  for (const [, c] of classes) {
    if (hits.length >= HITS_PER_SESSION) break;
    const name = (plucked(db, 'SELECT name FROM events WHERE id = ?').get(c.hit.firstId) as string | null | undefined) ?? null;
    // Snippets cost a read of the archived line: the first (shown) hit gets one, the others are links.
    const text = () => (c.kind === 'prompt' ? eventPromptText(db, c.hit.firstId, terms) : eventIndexedText(db, c.hit.firstId, terms));
    const snippet = hits.length === 0 ? makeSnippet(text() ?? name ?? '', terms) : null;
    hits.push({
      kind: c.kind,
      eventId: c.hit.firstId,
      sessionId: c.sessionId,
      inSubagent: c.inSubagent,
      eventType: c.hit.type,
      name,
      ts: c.hit.firstTs,
      snippet,
    });
  }
  for (const f of m.files) {
    if (hits.length >= HITS_PER_SESSION) break;
    const own = dir.getById(f.sessionId);
    hits.push({
      kind: 'file',
      eventId: f.eventId,
      sessionId: f.sessionId,
      inSubagent: own !== undefined && own.num !== m.root.num,
      eventType: f.eventId === null ? null : 'tool_call',
      name: f.path,
      ts: null,
      snippet: hits.length === 0 ? makeSnippet(f.path, snippetTerms.paths) : null,
    });
  }
  for (const f of m.companions) {
    if (hits.length >= HITS_PER_SESSION) break;
    const own = dir.getById(f.sessionId);
    hits.push({
      kind: f.kind,
      eventId: null,
      sessionId: f.sessionId,
      inSubagent: own !== undefined && own.num !== m.root.num,
      eventType: null,
      name: f.name,
      ts: null,
      snippet: hits.length === 0 ? makeSnippet(companionText(db, f.id), terms) : null,
    });
  }
  for (const r of m.refs) {
    if (hits.length >= HITS_PER_SESSION) break;
    const own = dir.getById(r.sessionId);
    const label = `${r.type === 'pr' ? 'PR' : r.type} #${r.value}`;
    hits.push({
      kind: 'ref',
      eventId: r.eventId,
      sessionId: r.sessionId,
      inSubagent: own !== undefined && own.num !== m.root.num,
      eventType: null,
      name: label,
      ts: null,
      snippet: hits.length === 0 ? { text: label, highlights: [[label.length - r.value.length, label.length]], cutStart: false, cutEnd: false } : null,
    });
  }
  const titleHit = (sessionId: string, text: string): SearchHit => {
    const snippet = hits.length === 0 ? makeSnippet(text, terms) : null;
    return { kind: 'meta', eventId: null, sessionId, inSubagent: sessionId !== m.root.id, eventType: null, name: null, ts: null, snippet };
  };
  // A subagent's title that matched: without it a session found only by it showed its own title, which does not match.
  if (m.subagentMeta !== null && hits.length < HITS_PER_SESSION) hits.push(titleHit(m.subagentMeta.sessionId, m.subagentMeta.text));
  // The title is shown anyway: as a hit it comes last, or alone when nothing else matched.
  if (hits.length === 0 || (m.meta !== null && hits.length < HITS_PER_SESSION)) hits.push(titleHit(m.root.id, m.meta ?? metaText(m.root)));
  const kinds = [...m.kinds.entries()].sort((a, b) => b[1] - a[1] || WEIGHTS[kindWeight(b[0])] - WEIGHTS[kindWeight(a[0])]).map(([kind, count]) => ({ kind, count }));
  return {
    id: m.root.id,
    title: m.root.title,
    repository: m.root.repository,
    branch: m.root.branch,
    source: sourceName(m.root.source),
    lastActivity: m.root.lastTs,
    eventCount,
    kinds,
    subagentHits: m.subagentHits,
    score: m.score,
    // each hit says the source of the session whose log holds it (a subagent's is its own row's)
    hits: hits.map((h) => ({ ...h, source: sourceName(dir.getById(h.sessionId)?.source ?? m.root.source) })),
  };
}

const sourceName = (s: string): 'vscode' | 'cli' => (s === 'cli' ? 'cli' : 'vscode');

function kindWeight(k: MatchKind): WeightClass {
  switch (k) {
    case 'turn':
      return 'user_message';
    case 'tool':
      return 'tool_call';
    case 'llm':
      return 'llm';
    default:
      return k;
  }
}
