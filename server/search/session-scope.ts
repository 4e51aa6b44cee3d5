import type Database from 'better-sqlite3';
import { KeptWhileUnchanged } from '../db/db-state';
import { segmentsNewestFirst, type IdSegment } from '../db/id-order';
import { statement } from '../db/statements';
import { topLevelOf } from './session-directory';
import type { ParsedQuery } from './query-parser';

// A first page reads a word's newest matches within a budget (event-hits.ts FIRST_PAGE_LIMITS). The session-level
// filters (repo:, branch:, source:) were applied only to the sessions those matches fell in: a repository whose
// sessions were older than the word's newest 6,000 matches elsewhere had none on the first page ("No session among
// the first 6,000 matches", "at least 0 sessions" to the command line and agents) until depth=all. A filtered query
// now reads only the line ids of the sessions that can pass: the families of the top-level sessions whose
// repository, branch and source pass, their files' id ranges in the scan's newest-first order.

/** What a session-level filter compares (the top-level session's, as search-sessions.ts applies them). */
export interface SessionFilterFields {
  repository: string | null;
  branch: string | null;
  source: string;
}

const contains = (hay: string | null, needle: string) => hay !== null && hay.toLowerCase().includes(needle.toLowerCase());

/** repo:, branch: and source: of `q` against a top-level session: repo and branch are case-insensitive substrings. */
export function passesSessionFilters(q: ParsedQuery, s: SessionFilterFields): boolean {
  return (
    (q.repo.length === 0 || q.repo.some((v) => contains(s.repository, v))) &&
    (q.branch.length === 0 || q.branch.some((v) => contains(s.branch, v))) &&
    (q.source.length === 0 || q.source.includes(s.source === 'cli' ? 'cli' : 'vscode'))
  );
}

const hasSessionFilters = (q: ParsedQuery) => q.repo.length > 0 || q.branch.length > 0 || q.source.length > 0;

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
 * Each piece is an FTS5 call of its own in every read (~0.3 ms for a common word, id-order.ts): past this many, the
 * nearest pieces are joined, and the matches between them (other sessions' lines) are read as rowids only and left
 * out by `inScope` before any is joined to its event. A repository's sessions are contiguous in a backfill only one
 * session at a time: 200 sessions of one repository among 19,000 are ~200 pieces.
 */
export const MAX_SCOPE_PIECES = 64;

/** Past this many filters kept for one commit, the oldest goes (each holds its sessions' numbers). */
const MAX_KEPT_SCOPES = 16;

/**
 * Every session's place in the tree and the values the filters compare, read once per commit (19,189 sessions on
 * the 1.6 GiB bench corpus: ~20 ms, then well under a ms a filter): strings by index into `values`, so that it holds
 * a few hundred kB however many sessions share a repository.
 */
interface SessionTree {
  nums: Int32Array;
  /** index of each session's top-level session */
  root: Int32Array;
  repository: Int32Array;
  branch: Int32Array;
  source: Int32Array;
  /** the distinct strings, -1 for null */
  values: string[];
  scopes: Map<string, SessionScope>;
}

function readTree(db: Database.Database): SessionTree {
  const rows = statement(db, 'SELECT num, id, parent_id, is_child, repository, branch, source FROM sessions').raw().all() as [number, string, string | null, number, string | null, string | null, string][];
  const n = rows.length;
  const values: string[] = [];
  const valueIndex = new Map<string, number>();
  const intern = (v: string | null) => {
    if (v === null) return -1;
    let i = valueIndex.get(v);
    if (i === undefined) {
      i = values.length;
      values.push(v);
      valueIndex.set(v, i);
    }
    return i;
  };
  const tree: SessionTree = {
    nums: new Int32Array(n),
    root: new Int32Array(n),
    repository: new Int32Array(n),
    branch: new Int32Array(n),
    source: new Int32Array(n),
    values,
    scopes: new Map(),
  };
  const nodes = rows.map(([, id, parentId, isChild], i) => ({ id, parentId, isChild: isChild === 1, i }));
  const byId = new Map(nodes.map((s) => [s.id, s]));
  rows.forEach(([num, , , , repository, branch, source], i) => {
    tree.nums[i] = num;
    tree.root[i] = topLevelOf(nodes[i], (id) => byId.get(id)).i;
    tree.repository[i] = intern(repository);
    tree.branch[i] = intern(branch);
    tree.source[i] = intern(source);
  });
  return tree;
}

const trees = new KeptWhileUnchanged(readTree);

const filterKey = (q: ParsedQuery) => JSON.stringify([q.repo, q.branch, q.source]);

/**
 * The scope of `q`'s session-level filters (null without one): kept until the next commit, as the tree it is read
 * from. Every session whose top-level session passes is in it, by the rule the search applies afterwards
 * (passesSessionFilters, topLevelOf), so that reading only its ids loses no match the filter keeps.
 */
export function sessionScope(db: Database.Database, q: ParsedQuery): SessionScope | null {
  if (!hasSessionFilters(q)) return null;
  const tree = trees.get(db);
  const key = filterKey(q);
  const kept = tree.scopes.get(key);
  if (kept !== undefined) return kept;
  const value = (i: number) => (i < 0 ? null : tree.values[i]);
  const passes = new Map<number, boolean>();
  const rootPasses = (r: number) => {
    let p = passes.get(r);
    if (p === undefined) {
      p = passesSessionFilters(q, { repository: value(tree.repository[r]), branch: value(tree.branch[r]), source: value(tree.source[r]) ?? 'vscode' });
      passes.set(r, p);
    }
    return p;
  };
  const nums: number[] = [];
  for (let i = 0; i < tree.nums.length; i++) if (rootPasses(tree.root[i])) nums.push(tree.nums[i]);
  const scope = scopeOf(db, nums);
  if (tree.scopes.size >= MAX_KEPT_SCOPES) tree.scopes.delete(tree.scopes.keys().next().value as string);
  tree.scopes.set(key, scope);
  return scope;
}

/**
 * Past this many top-level sessions named by file: or ref:, or this many sessions in their families, the scan is not
 * narrowed to them: their ranges cost two seeks a file for each query (~2 µs each; on the bench corpus a common path
 * names ~3,000 top-level sessions, and 216 named by a file name had 11,207 sessions in their families: 25 ms), and a
 * first page of the newest matches holds plenty of so many anyway.
 */
export const MAX_NAMED_ROOTS = 256;
export const MAX_NAMED_SESSIONS = 2048;

/**
 * `scope` (every session when null) narrowed to the families of `roots`, top-level sessions by number: those whose
 * paths or refs a file: or ref: filter found (search-sessions.ts keeps no other). Null when their lines are more
 * than MAX_SCOPE_PIECES ranges apart: the pieces would be joined, and reading the other sessions' matches between
 * them cost more than it found (bench corpus, file: of a name in ~200 sessions across the corpus: +20–30 ms a
 * query, none of 84 such first pages exact either way). Made for each query, as the roots are that query's.
 */
export function narrowScope(db: Database.Database, scope: SessionScope | null, roots: ReadonlySet<number>): SessionScope | null {
  if (roots.size > MAX_NAMED_ROOTS) return null;
  const tree = trees.get(db);
  const kept = scope === null ? null : new Set(scope.nums);
  const nums: number[] = [];
  for (let i = 0; i < tree.nums.length; i++) {
    const num = tree.nums[i];
    if (roots.has(tree.nums[tree.root[i]]) && (kept === null || kept.has(num))) nums.push(num);
  }
  if (nums.length > MAX_NAMED_SESSIONS) return null;
  const narrowed = scopeOf(db, nums);
  return narrowed.ranges.length <= MAX_SCOPE_PIECES ? narrowed : null;
}

function scopeOf(db: Database.Database, nums: number[]): SessionScope {
  const ranges = nums.length === 0 ? [] : fileRanges(db, nums);
  return { nums, ranges, segments: joinNearest(intersect(ranges, segmentsNewestFirst(db)), MAX_SCOPE_PIECES) };
}

/** Each file's first and last line id (lines_file: two index seeks a file). */
const FILE_RANGES = `SELECT (SELECT min(id) FROM main.lines WHERE file_id = f.id) AS lo, (SELECT max(id) FROM main.lines WHERE file_id = f.id) AS hi
FROM main.sessions s JOIN main.files f ON f.session_id = s.id
WHERE s.num IN (SELECT value FROM json_each(?))`;

function fileRanges(db: Database.Database, nums: number[]): { lo: number; hi: number }[] {
  const ranges = (statement(db, FILE_RANGES).all(JSON.stringify(nums)) as { lo: number | null; hi: number | null }[])
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
