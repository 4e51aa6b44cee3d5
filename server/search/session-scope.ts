import type Database from 'better-sqlite3';
import { KeptWhileUnchanged } from '../db/db-state';
import { segmentsNewestFirst, type IdSegment } from '../db/id-order';
import { statement } from '../db/statements';
import { MAX_DEPTH } from './session-directory';
import type { ParsedQuery } from './query-parser';

// A first page reads a word's newest matches within a budget (event-hits.ts FIRST_PAGE_LIMITS). The session-level
// filters (repo:, branch:, source:) were applied only to the sessions those matches fell in: a repository whose
// sessions were older than the word's newest 6,000 matches elsewhere had none on the first page ("No session among
// the first 6,000 matches", "at least 0 sessions" to the command line and agents) until depth=all. A query with a
// repo: filter now reads only the line ids of the sessions that can pass: the families of the top-level
// sessions whose repository, branch and source pass, their files' id ranges in the scan's newest-first order. A
// branch: or source: alone is not narrowed: no index finds their sessions, and each is most sessions anyway.

/** What a session-level filter compares (the top-level session's, as search-sessions.ts applies them). */
export interface SessionFilterFields {
  repository: string | null;
  branch: string | null;
  source: string;
}

const contains = (hay: string | null, needle: string) => hay !== null && hay.toLowerCase().includes(needle.toLowerCase());

/** repo: of `q` against a repository: a case-insensitive substring of it. */
const repositoryPasses = (q: ParsedQuery, repository: string | null) => q.repo.length === 0 || q.repo.some((v) => contains(repository, v));

/** repo:, branch: and source: of `q` against a top-level session: repo and branch are case-insensitive substrings. */
export function passesSessionFilters(q: ParsedQuery, s: SessionFilterFields): boolean {
  return (
    repositoryPasses(q, s.repository) &&
    (q.branch.length === 0 || q.branch.some((v) => contains(s.branch, v))) &&
    (q.source.length === 0 || q.source.includes(s.source === 'cli' ? 'cli' : 'vscode'))
  );
}

/** The sessions a filtered query can match, and the ids their lines hold, to read instead of every id. */
export interface SessionScope {
  /** the sessions (top-level ones that pass, and their subagents) */
  nums: number[];
  /** their files' line ids, first to last of each file, ascending and disjoint: an id outside them is not read */
  ranges: { lo: number; hi: number }[];
  /** where to read: the ranges in segmentsNewestFirst's order, at most MAX_SCOPE_PIECES pieces */
  segments: IdSegment[];
}

/** Whether `id` is inside one of `scope`'s ranges (a binary search: well under a µs a match). */
export function inScope(scope: SessionScope, id: number): boolean {
  const r = scope.ranges;
  let lo = 0;
  let hi = r.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (id < r[mid].lo) hi = mid - 1;
    else if (id > r[mid].hi) lo = mid + 1;
    else return true;
  }
  return false;
}

/**
 * Each piece is an FTS5 call of its own in every read (0.04–0.1 ms for a narrow range of a common word on the bench
 * corpus, more for a long phrase): past this many, the nearest pieces are joined, and the matches between them (other
 * sessions' lines) are read as rowids only and left out by `inScope` before any is joined to its event. A
 * repository's sessions are contiguous in a backfill only one session at a time: 200 sessions of one repository
 * among 19,000 are ~200 pieces.
 */
export const MAX_SCOPE_PIECES = 64;

/**
 * A filter keeping more than this share of the sessions is not narrowed (null): a first page of the newest matches
 * holds plenty of its sessions anyway, and its ranges would cost two seeks a file (~2 µs each) after every commit.
 */
const BROAD_SHARE = 0.5;

/** Past this many filters kept for one commit, the oldest goes (each holds its sessions' numbers and ranges). */
const MAX_KEPT_SCOPES = 16;

const kept = new KeptWhileUnchanged(() => new Map<string, SessionScope | null>());

const filterKey = (q: ParsedQuery) => JSON.stringify([q.repo, q.branch, q.source]);

// Every read goes through an index: the sessions table is ~1 kB a row (summaries, counts), 18 MB and ~23 ms to scan
// at 19,189 sessions, and a commit every 200 ms while Copilot writes would have each filtered search pay it.
const DISTINCT_REPOSITORIES = 'SELECT DISTINCT repository FROM main.sessions WHERE repository IS NOT NULL';
// numbers are given one after another: the highest is the count of sessions ever made, in one seek
const SESSION_COUNT = 'SELECT coalesce(max(num), 0) FROM main.sessions';
const COUNT_IN_REPOSITORIES = 'SELECT count(*) FROM main.sessions WHERE repository IN (SELECT value FROM json_each(?))';
const SESSIONS_IN_REPOSITORIES = 'SELECT num, id, repository, branch, source FROM main.sessions WHERE repository IN (SELECT value FROM json_each(?))';
const SESSIONS_BY_NUM = 'SELECT num, id FROM main.sessions WHERE num IN (SELECT value FROM json_each(?))';
const CHILDREN_OF = 'SELECT num, id FROM main.sessions WHERE parent_id IN (SELECT value FROM json_each(?)) AND is_child = 1';

/**
 * The scope of `q`'s repo: filter, with its branch: and source: (null without a repo: filter, or when it keeps more
 * than BROAD_SHARE of the sessions: the search then filters the newest matches as before). Kept until the next
 * commit. Every session whose top-level session passes is in it: that top-level session passes on its own row
 * (passesSessionFilters, the rule the search applies afterwards), so it is among its repository's rows, and the
 * sessions below it are found from it by their parent links, as SessionDirectory.rootOf follows them up.
 */
export function sessionScope(db: Database.Database, q: ParsedQuery): SessionScope | null {
  if (q.repo.length === 0) return null;
  const scopes = kept.get(db);
  const key = filterKey(q);
  if (scopes.has(key)) return scopes.get(key)!;
  const scope = readScope(db, q);
  if (scopes.size >= MAX_KEPT_SCOPES) scopes.delete(scopes.keys().next().value as string);
  scopes.set(key, scope);
  return scope;
}

function readScope(db: Database.Database, q: ParsedQuery): SessionScope | null {
  const repositories = (statement(db, DISTINCT_REPOSITORIES).pluck().all() as string[]).filter((r) => repositoryPasses(q, r));
  if (repositories.length === 0) return scopeOf(db, []);
  const inRepositories = JSON.stringify(repositories);
  const total = statement(db, SESSION_COUNT).pluck().get() as number;
  if ((statement(db, COUNT_IN_REPOSITORIES).pluck().get(inRepositories) as number) > total * BROAD_SHARE) return null;
  const rows = statement(db, SESSIONS_IN_REPOSITORIES).all(inRepositories) as (SessionFilterFields & ScopedSession)[];
  return scopeOf(db, withDescendants(db, rows.filter((r) => passesSessionFilters(q, r)), Infinity)!);
}

interface ScopedSession {
  num: number;
  id: string;
}

/**
 * `sessions` and every session below them by is_child parent links, as deep as SessionDirectory.rootOf climbs (one
 * indexed statement a level); null past `max` sessions.
 */
function withDescendants(db: Database.Database, sessions: ScopedSession[], max: number): ScopedSession[] | null {
  const seen = new Set<string>(sessions.map((s) => s.id));
  const family = [...sessions];
  let frontier = [...seen];
  for (let depth = 0; depth <= MAX_DEPTH && frontier.length > 0 && family.length <= max; depth++) {
    const children = statement(db, CHILDREN_OF).all(JSON.stringify(frontier)) as ScopedSession[];
    frontier = [];
    for (const c of children) {
      if (seen.has(c.id)) continue;
      seen.add(c.id);
      family.push(c);
      frontier.push(c.id);
    }
  }
  return family.length > max ? null : family;
}

/**
 * Past this many top-level sessions named by file: or ref:, or this many sessions in their families, the scan is not
 * narrowed to them: their ranges cost two seeks a file for each query (~2 µs each; on the bench corpus a common path
 * names ~3,000 top-level sessions, and 216 named by a file name had 11,207 sessions in their families: 25 ms), and a
 * first page of the newest matches holds plenty of so many anyway.
 */
const MAX_NAMED_ROOTS = 256;
const MAX_NAMED_SESSIONS = 2048;

/**
 * `scope` (every session when null) narrowed to the families of `roots`, top-level sessions by number: those whose
 * paths or refs a file: or ref: filter found (search-sessions.ts keeps no other). Null when their lines are more
 * than MAX_SCOPE_PIECES ranges apart: the pieces would be joined, and reading the other sessions' matches between
 * them cost more than it found (bench corpus, file: of a name in ~200 sessions across the corpus: +20–30 ms a
 * query, none of 84 such first pages exact either way). Made for each query, as the roots are that query's.
 */
export function narrowScope(db: Database.Database, scope: SessionScope | null, roots: ReadonlySet<number>): SessionScope | null {
  if (roots.size > MAX_NAMED_ROOTS) return null;
  const family = withDescendants(db, statement(db, SESSIONS_BY_NUM).all(JSON.stringify([...roots])) as ScopedSession[], MAX_NAMED_SESSIONS);
  if (family === null) return null;
  const scopedNums = scope === null ? null : new Set(scope.nums);
  const narrowed = scopeOf(db, scopedNums === null ? family : family.filter((s) => scopedNums.has(s.num)));
  return narrowed.ranges.length <= MAX_SCOPE_PIECES ? narrowed : null;
}

function scopeOf(db: Database.Database, sessions: ScopedSession[]): SessionScope {
  const ranges = sessions.length === 0 ? [] : fileRanges(db, sessions.map((s) => s.id));
  return { nums: sessions.map((s) => s.num), ranges, segments: joinNearest(intersect(ranges, segmentsNewestFirst(db)), MAX_SCOPE_PIECES) };
}

/** Each file's first and last line id (lines_file: two index seeks a file). */
const FILE_RANGES = `SELECT (SELECT min(id) FROM main.lines WHERE file_id = f.id) AS lo, (SELECT max(id) FROM main.lines WHERE file_id = f.id) AS hi
FROM main.files f WHERE f.session_id IN (SELECT value FROM json_each(?))`;

function fileRanges(db: Database.Database, ids: string[]): { lo: number; hi: number }[] {
  const ranges = (statement(db, FILE_RANGES).all(JSON.stringify(ids)) as { lo: number | null; hi: number | null }[])
    .filter((r): r is { lo: number; hi: number } => r.lo !== null && r.hi !== null)
    .sort((a, b) => a.lo - b.lo);
  return mergeOverlapping(ranges);
}

function mergeOverlapping(ranges: { lo: number; hi: number }[]): { lo: number; hi: number }[] {
  const out: { lo: number; hi: number }[] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last !== undefined && r.lo <= last.hi + 1) last.hi = Math.max(last.hi, r.hi);
    else out.push({ ...r });
  }
  return out;
}

/** The ranges (sorted, disjoint) cut to each segment, in the segments' order and each in its segment's direction. */
export function intersect(ranges: { lo: number; hi: number }[], segments: IdSegment[]): IdSegment[][] {
  return segments.map((seg) => {
    const inside: IdSegment[] = [];
    for (const r of ranges) {
      if (r.hi < seg.lo) continue;
      if (r.lo > seg.hi) break;
      inside.push({ lo: Math.max(r.lo, seg.lo), hi: Math.min(r.hi, seg.hi), newestFirst: seg.newestFirst });
    }
    return seg.newestFirst ? inside : inside.reverse();
  });
}

/**
 * At most `max` pieces (or one a segment, when there are more segments): the smallest gaps inside a segment are
 * closed first. Pieces of two segments never join: they are read in opposite directions.
 */
export function joinNearest(bySegment: IdSegment[][], max: number): IdSegment[] {
  const count = bySegment.reduce((n, s) => n + s.length, 0);
  const excess = count - Math.max(max, bySegment.filter((s) => s.length > 0).length);
  const closed = new Set<string>();
  if (excess > 0) {
    const gaps: { at: string; size: number }[] = [];
    bySegment.forEach((pieces, s) => {
      for (let i = 1; i < pieces.length; i++) {
        const [a, b] = [pieces[i - 1], pieces[i]];
        gaps.push({ at: `${s}:${i}`, size: a.newestFirst ? b.lo - a.hi : a.lo - b.hi });
      }
    });
    gaps.sort((x, y) => x.size - y.size);
    for (const g of gaps.slice(0, excess)) closed.add(g.at);
  }
  const out: IdSegment[] = [];
  bySegment.forEach((pieces, s) => {
    pieces.forEach((p, i) => {
      const last = out[out.length - 1];
      if (i > 0 && closed.has(`${s}:${i}`)) {
        if (p.newestFirst) last.hi = p.hi;
        else last.lo = p.lo;
      } else out.push({ ...p });
    });
  });
  return out;
}
