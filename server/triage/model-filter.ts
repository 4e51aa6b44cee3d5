import type { EventListParams } from '../../shared/api/triage';
import { CALL_TYPES } from '../../shared/api/triage';
import { foldWhitespace } from '../search/indexed-text';
import { windowStart } from './cache';
import type { TriageModel } from './model';
import type { PagedColumn } from './paged-column';

const LLM = 0;
const TOOLISH = new Set(['tool_call', 'subagent']);

/**
 * The event-list filter as a predicate over the triage model's rows, or null when some matching rows may not
 * be in the model (it holds every call and every event that took time, failed or is a failure, not instant
 * events such as user messages) or the filter needs the text index. Mirrors eventFilter's SQL term by term.
 */
export function rowFilter(m: TriageModel, q: EventListParams, now: number): RowFilter | null {
  if (q.q !== undefined && foldWhitespace(q.q) !== '') return null;
  const types = q.type && q.type.length > 0 ? q.type : null;
  const onlyCalls = types !== null && types.every((t) => (CALL_TYPES as readonly string[]).includes(t));
  const covered = q.min >= 0 || q.status === 'error' || q.failed === '1' || q.sig !== undefined || onlyCalls || q.model !== undefined || q.tool !== undefined || q.sort === 'ttft';
  if (!covered) return null;
  // name is the subject only of types other than model calls, tool calls and subagents
  if (q.name !== undefined && (types === null || types.some((t) => t === 'llm_request' || TOOLISH.has(t)))) return null;
  if (q.tool === '') return null;

  const none: RowFilter = { match: () => false, candidates: [] };
  let typeOk: Uint8Array | null = null;
  if (types !== null) {
    typeOk = new Uint8Array(m.types.length);
    for (const t of types) {
      const id = m.typeId(t);
      if (id !== undefined) typeOk[id] = 1;
    }
  }
  const toolTypes = new Uint8Array(m.types.length);
  for (const t of TOOLISH) {
    const id = m.typeId(t);
    if (id !== undefined) toolTypes[id] = 1;
  }
  const subject = (v: string | undefined) => (v === undefined ? -2 : (m.stringId(v) ?? -1));
  const modelId = subject(q.model);
  const toolId = subject(q.tool);
  const nameId = subject(q.name);
  if (modelId === -1 || toolId === -1 || nameId === -1) return none;
  const since = windowStart(q.window, now);
  const from = Math.max(since, q.from ?? -Infinity);
  const to = q.to ?? Infinity;
  const timed = from !== -Infinity || to !== Infinity || q.sort === 'ts';
  const min = q.min;
  const max = q.max ?? Infinity;
  const status = q.status === undefined ? -1 : q.status === 'error' ? 1 : 0;
  const inScope = m.sessionScope(q.repo, q.source);
  const session = q.session === undefined ? -2 : (m.sessionNum(q.session) ?? -1);
  if (session === -1) return none;
  let sigGroups: Uint8Array | null = null;
  if (q.sig !== undefined) {
    sigGroups = new Uint8Array(m.failGroups.length);
    m.failGroups.forEach((g, i) => (sigGroups![i] = g.signature === q.sig ? 1 : 0));
  }
  const failedOnly = q.failed === '1' || sigGroups !== null;
  const needTtft = q.sort === 'ttft';
  const { cType, cDur, cTs, cStatus, cSubject, cSession, cLlm, cFail, lTtft } = m;
  // Only the rows that can match need a look: those of the subject filtered on, else of the types asked for.
  const subjectFilter = modelId !== -2 ? modelId : toolId !== -2 ? toolId : nameId !== -2 ? nameId : -2;
  let candidates: PagedColumn[] | null = null;
  if (subjectFilter !== -2) candidates = [m.bySubject[subjectFilter]].filter((l) => l !== undefined);
  else if (typeOk !== null) candidates = [...typeOk.keys()].filter((t) => typeOk![t] === 1 && m.byType[t] !== undefined).map((t) => m.byType[t]);
  const match = (i: number) => {
    const type = cType.get(i);
    if (typeOk !== null && typeOk[type] === 0) return false;
    const dur = cDur.get(i);
    if (!(dur > min) || dur > max) return false;
    if (status !== -1 && cStatus.get(i) !== status) return false;
    if (modelId !== -2 && (type !== LLM || cSubject.get(i) !== modelId)) return false;
    if (toolId !== -2 && (toolTypes[type] === 0 || cSubject.get(i) !== toolId)) return false;
    if (nameId !== -2 && cSubject.get(i) !== nameId) return false;
    if (timed) {
      const ts = cTs.get(i);
      if (Number.isNaN(ts) || ts < from || ts >= to) return false;
    }
    if (failedOnly) {
      const g = cFail.get(i);
      if (g < 0 || (sigGroups !== null && sigGroups[g] === 0)) return false;
    }
    if (needTtft) {
      const l = cLlm.get(i);
      if (l < 0 || Number.isNaN(lTtft.get(l))) return false;
    }
    const s = cSession.get(i);
    if (session !== -2 && s !== session) return false;
    if (inScope !== null && !inScope(s)) return false;
    return true;
  };
  return { match, candidates };
}

export interface RowFilter {
  match: (i: number) => boolean;
  /** row lists that hold every matching row; null: look at every row */
  candidates: PagedColumn[] | null;
}

function forEachCandidate(m: TriageModel, f: RowFilter, visit: (i: number) => void): void {
  if (f.candidates === null) {
    for (let i = 0; i < m.n; i++) visit(i);
    return;
  }
  for (const rows of f.candidates) for (let k = 0; k < rows.length; k++) visit(rows.get(k));
}

/** The exact number of events matching a filter, over the model; null when the model cannot tell. */
export function countInModel(m: TriageModel, q: EventListParams, now: number): number | null {
  const f = rowFilter(m, q, now);
  if (f === null) return null;
  let n = 0;
  forEachCandidate(m, f, (i) => {
    if (f.match(i)) n++;
  });
  return n;
}

/**
 * One page of the list from the model: the ids of the first `limit` matching rows in (sort value, id) order
 * after the cursor, by one pass with a small sorted buffer. null when the model cannot answer the filter.
 */
export function pageInModel(m: TriageModel, q: EventListParams, after: (string | number | null)[] | null, limit: number, now: number): { ids: number[]; keys: number[] } | null {
  const f = rowFilter(m, q, now);
  if (f === null) return null;
  const { match } = f;
  const { cDur, cTs, cLlm, lTtft, cId } = m;
  const key = q.sort === 'dur' ? (i: number) => cDur.get(i) : q.sort === 'ts' ? (i: number) => cTs.get(i) : (i: number) => lTtft.get(cLlm.get(i));
  const sign = q.order === 'desc' ? 1 : -1;
  // true when (ka, ia) comes before (kb, ib) in the list's order
  const before = (ka: number, ia: number, kb: number, ib: number) => (ka !== kb ? sign * (ka - kb) > 0 : sign * (ia - ib) > 0);
  const c0 = after === null ? null : Number(after[0]);
  const c1 = after === null ? null : Number(after[1]);
  const bufKey: number[] = [];
  const bufId: number[] = [];
  forEachCandidate(m, f, (i) => {
    if (!match(i)) return;
    const k = key(i);
    const id = cId.get(i);
    if (c0 !== null && !before(c0, c1!, k, id)) return; // at or before the cursor
    const len = bufKey.length;
    if (len === limit && !before(k, id, bufKey[len - 1], bufId[len - 1])) return;
    let at = len;
    while (at > 0 && before(k, id, bufKey[at - 1], bufId[at - 1])) at--;
    bufKey.splice(at, 0, k);
    bufId.splice(at, 0, id);
    if (bufKey.length > limit) {
      bufKey.pop();
      bufId.pop();
    }
  });
  return { ids: bufId, keys: bufKey };
}
