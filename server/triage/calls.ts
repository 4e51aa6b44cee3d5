import type { SessionSource, TimeWindow } from '../../shared/api/common';
import type { StatsBy } from '../../shared/api/triage';
import { windowStart } from './cache';
import type { CallType, TriageModel } from './model';

/** Which calls a statistic or chart is about, and how they are grouped. */
export interface CallFilter {
  by: StatsBy;
  /** the call type when grouping by repository (otherwise implied by `by`) */
  type?: CallType;
  /** one group only (a model, tool, … or repository; '' = none) */
  key?: string;
  repo?: string;
  source?: SessionSource;
  window: TimeWindow;
}

export interface CallSelection {
  /** row indexes into the model's columns */
  rows: Int32Array;
  /** the group of each selected row (index into keys) */
  group: Int32Array;
  keys: string[];
}

const TYPE_OF_BY: Record<Exclude<StatsBy, 'repository'>, CallType> = { model: 'llm_request', tool: 'tool_call', subagent: 'subagent', hook: 'hook' };

export function callTypeOf(f: Pick<CallFilter, 'by' | 'type'>): CallType {
  return f.by === 'repository' ? (f.type ?? 'llm_request') : TYPE_OF_BY[f.by];
}

/**
 * The canonical calls matching a filter, each with its group: one pass over the model's columns. Groups are
 * looked up through arrays indexed by subject or session number, not maps: this loop runs over millions of rows.
 */
export function selectCalls(m: TriageModel, f: CallFilter, now: number): CallSelection {
  const code = m.callCode(callTypeOf(f));
  const since = windowStart(f.window, now);
  const byRepo = f.by === 'repository';
  const inScope = m.sessionScope(f.repo, f.source);
  const keyRepo = f.key !== undefined && byRepo ? (f.key === '' ? null : f.key) : undefined;
  // -2: no subject filter; -1: a subject the model has never seen (nothing matches)
  const subjectId = f.key !== undefined && !byRepo ? (m.stringId(f.key) ?? -1) : -2;

  const keys: string[] = [];
  // group of a subject id, or of a session number when grouping by repository (-1: not yet assigned)
  const groupOfSubject = new Int32Array(m.strings.length).fill(-1);
  const needRepo = byRepo || inScope !== null;
  let sessionGroup: Int32Array | null = null; // -1 unknown, -2 filtered out, else the group
  let repoGroups: Map<string | null, number> | null = null;
  if (needRepo) {
    let maxNum = 0;
    for (const k of m.sessions.keys()) if (k > maxNum) maxNum = k;
    sessionGroup = new Int32Array(maxNum + 2).fill(-1);
    repoGroups = new Map();
  }

  // the rows of the call type (or of the one subject asked for), not the whole model
  const list = subjectId >= 0 ? m.bySubject[subjectId] : subjectId === -1 ? undefined : m.byType[code];
  const n = list?.length ?? 0;
  const rows = new Int32Array(n);
  const group = new Int32Array(n);
  let k = 0;
  const { cType, cTs, cSubject, cSession } = m;
  const windowed = since !== -Infinity;
  for (let c = 0; c < n; c++) {
    const i = list!.get(c);
    if (cType.get(i) !== code) continue;
    if (windowed && !(cTs.get(i) >= since)) continue;
    const subject = cSubject.get(i);
    if (subjectId !== -2 && subject !== subjectId) continue;
    let g: number;
    if (sessionGroup !== null) {
      const s = cSession.get(i);
      let sg = s < sessionGroup.length ? sessionGroup[s] : -1;
      if (sg === -1) {
        const repo = m.repositoryOf(s);
        if ((inScope !== null && !inScope(s)) || (keyRepo !== undefined && repo !== keyRepo)) sg = -2;
        else if (byRepo) {
          let rg = repoGroups!.get(repo);
          if (rg === undefined) {
            rg = keys.length;
            keys.push(repo ?? '');
            repoGroups!.set(repo, rg);
          }
          sg = rg;
        } else sg = 0; // passes the repository and source filters; the group comes from the subject below
        if (s < sessionGroup.length) sessionGroup[s] = sg;
      }
      if (sg === -2) continue;
      if (byRepo) {
        g = sg;
        rows[k] = i;
        group[k] = g;
        k++;
        continue;
      }
    }
    g = groupOfSubject[subject];
    if (g === -1) {
      g = keys.length;
      keys.push(m.strings[subject]);
      groupOfSubject[subject] = g;
    }
    rows[k] = i;
    group[k] = g;
    k++;
  }
  return { rows: rows.subarray(0, k), group: group.subarray(0, k), keys };
}
