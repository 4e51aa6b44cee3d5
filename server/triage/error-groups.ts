import type Database from 'better-sqlite3';
import { rawLines } from '../db/raw-lines';
import { lineAttrs } from '../ingest/normalize';
import type { ErrorGroup, ErrorGroupsParams, ErrorGroupsResponse, FailureKind } from '../../shared/api/triage';
import { cachedResult, windowStart } from './cache';
import { triageModel, type FailGroupKey, type TriageModel } from './model';

interface GroupTotals extends FailGroupKey {
  g: number;
  count: number;
  sessions: number;
  firstSeen: number | null;
  lastSeen: number | null;
  latestId: number;
  latestSession: number;
}

interface Computed {
  groups: GroupTotals[];
  totalFailures: number;
  byKind: Record<string, number>;
  sparkFrom: number;
  bucketMs: number;
}

/**
 * GET /api/errors/groups: canonical failures grouped by (type, subject, signature), with count, sessions
 * affected, first/last seen and a sparkline; the groups come from the triage model (no table scan) and are
 * cached by index version, the page's latest messages are read by id.
 */
export function errorGroups(db: Database.Database, q: ErrorGroupsParams, now = Date.now()): ErrorGroupsResponse {
  const m = triageModel(db, now);
  const { offset, limit, ...rest } = q;
  const c = cachedResult(m, 'errors', rest, now, () => computeGroups(m, q, now));
  const page = c.groups.slice(offset, offset + limit);
  const sparks = sparklines(m, page, q, c.sparkFrom, c.bucketMs, now);
  const message = db.prepare('SELECT substr(error, 1, 500) error FROM events WHERE id = ?');
  const groups: ErrorGroup[] = page.map((g, i) => ({
    kind: g.kind,
    subject: g.subject,
    signature: g.signature,
    type: g.type,
    count: g.count,
    sessions: g.sessions,
    firstSeen: g.firstSeen,
    lastSeen: g.lastSeen,
    sparkline: sparks[i],
    latest: {
      eventId: g.latestId,
      sessionId: m.sessions.get(g.latestSession)?.id ?? '',
      message: (message.get(g.latestId) as { error: string | null } | undefined)?.error ?? null,
      result: resultText(db, g.latestId),
    },
  }));
  return {
    groups,
    totalGroups: c.groups.length,
    totalFailures: c.totalFailures,
    byKind: c.byKind,
    sparkFrom: c.sparkFrom,
    bucketMs: c.bucketMs,
    nextOffset: offset + limit < c.groups.length ? offset + limit : null,
    version: m.lastId,
  };
}

const RESULT_CHARS = 500;

/**
 * What a call answered, from its attributes: a debug log's `result`, a Copilot CLI completion's `result.content`
 * (else its `detailedContent`); null when it has none. The API's groups and the MCP tool's both read it here.
 */
export function callResult(attrs: Record<string, unknown> | null | undefined): string | null {
  const r = attrs?.result;
  const cli = r !== null && typeof r === 'object' ? (r as Record<string, unknown>) : null;
  const v = cli ? (typeof cli.content === 'string' && cli.content.trim() !== '' ? cli.content : cli.detailedContent) : r;
  return typeof v === 'string' && v.trim() !== '' ? v : null;
}

/** The result of a failed call, from its archived line (only the page's latest occurrences are read). */
function resultText(db: Database.Database, eventId: number): string | null {
  const v = callResult(lineAttrs(rawLines(db).json(eventId)));
  if (v === null) return null;
  return v.length > RESULT_CHARS ? `${v.slice(0, RESULT_CHARS)}…` : v;
}

function groupMatches(key: FailGroupKey, q: ErrorGroupsParams, needle: string | null): boolean {
  if (q.subject !== undefined && key.subject !== q.subject) return false;
  if (needle !== null && !key.signature.toLowerCase().includes(needle) && !key.subject.toLowerCase().includes(needle)) return false;
  return true;
}

export function computeGroups(m: TriageModel, q: ErrorGroupsParams, now: number): Computed {
  const since = windowStart(q.window, now);
  const inScope = m.sessionScope(q.repo, q.source);
  const needle = q.q ? q.q.toLowerCase() : null;
  const G = m.failGroups.length;
  // 1 = passes every filter, 2 = passes every filter but the kind (counted in byKind only)
  const ok = new Uint8Array(G);
  for (let g = 0; g < G; g++) {
    const key = m.failGroups[g];
    if (!groupMatches(key, q, needle)) continue;
    ok[g] = q.kind === undefined || key.kind === q.kind ? 1 : 2;
  }
  const count = new Float64Array(G);
  const sessions = new Float64Array(G);
  const first = new Float64Array(G).fill(Infinity);
  const last = new Float64Array(G).fill(-Infinity);
  const latestId = new Float64Array(G);
  const latestSession = new Int32Array(G);
  const latestTs = new Float64Array(G).fill(-Infinity);
  const seen = new Set<number>();
  const byKind: Record<string, number> = {};
  let total = 0;
  let minTs = Infinity;
  let maxTs = -Infinity;
  for (let k = 0; k < m.fn; k++) {
    const row = m.fRow.get(k);
    const g = m.cFail.get(row);
    if (ok[g] === 0) continue;
    const ts = m.cTs.get(row);
    if (since !== -Infinity && !(ts >= since)) continue;
    const session = m.cSession.get(row);
    if (inScope !== null && !inScope(session)) continue;
    const kind = m.failGroups[g].kind;
    byKind[kind] = (byKind[kind] ?? 0) + 1;
    if (ok[g] !== 1) continue;
    total++;
    count[g]++;
    // sessions < 2^31 and groups < 2^21: one number identifies the pair
    const pair = g * 2147483648 + session;
    if (!seen.has(pair)) {
      seen.add(pair);
      sessions[g]++;
    }
    if (ts < first[g]) first[g] = ts;
    if (ts > last[g]) last[g] = ts;
    if (ts < minTs) minTs = ts;
    if (ts > maxTs) maxTs = ts;
    // the latest by time; by id when times tie or are missing
    if (!(ts < latestTs[g])) {
      latestTs[g] = Number.isNaN(ts) ? latestTs[g] : ts;
      latestId[g] = m.fId.get(k);
      latestSession[g] = session;
    }
  }
  const groups: GroupTotals[] = [];
  for (let g = 0; g < G; g++) {
    if (count[g] === 0) continue;
    groups.push({
      ...m.failGroups[g],
      g,
      count: count[g],
      sessions: sessions[g],
      firstSeen: first[g] === Infinity ? null : first[g],
      lastSeen: last[g] === -Infinity ? null : last[g],
      latestId: latestId[g],
      latestSession: latestSession[g],
    });
  }
  const by = q.sort;
  groups.sort((a, b) =>
    by === 'last'
      ? (b.lastSeen ?? 0) - (a.lastSeen ?? 0) || b.count - a.count
      : by === 'sessions'
        ? b.sessions - a.sessions || b.count - a.count
        : b.count - a.count || (b.lastSeen ?? 0) - (a.lastSeen ?? 0),
  );
  const sparkFrom = since !== -Infinity ? since : minTs === Infinity ? now : minTs;
  const sparkTo = since !== -Infinity ? now : maxTs === -Infinity ? now : maxTs;
  const bucketMs = Math.max(1, Math.ceil((sparkTo - sparkFrom + 1) / q.buckets));
  return { groups, totalFailures: total, byKind: byKind as Record<FailureKind, number>, sparkFrom, bucketMs };
}

/** Occurrences per bucket for the groups of one page: one pass over the failures. */
function sparklines(m: TriageModel, page: GroupTotals[], q: ErrorGroupsParams, from: number, bucketMs: number, now: number): number[][] {
  const since = windowStart(q.window, now);
  const inScope = m.sessionScope(q.repo, q.source);
  const slot = new Map<number, number>(page.map((g, i) => [g.g, i]));
  const out = page.map(() => new Array<number>(q.buckets).fill(0));
  if (page.length === 0) return out;
  for (let k = 0; k < m.fn; k++) {
    const row = m.fRow.get(k);
    const i = slot.get(m.cFail.get(row));
    if (i === undefined) continue;
    const ts = m.cTs.get(row);
    if (Number.isNaN(ts) || (since !== -Infinity && ts < since)) continue;
    if (inScope !== null && !inScope(m.cSession.get(row))) continue;
    const b = Math.floor((ts - from) / bucketMs);
    if (b >= 0 && b < q.buckets) out[i][b]++;
  }
  return out;
}
