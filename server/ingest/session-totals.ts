/**
 * A session's facts summed per event type and model, as the session refresh reads them (refresh-session.ts), kept
 * by the writer as it inserts the session's events, so that a refresh of a session written in this process reads
 * none of its events back. The refresh's SQL over the events table gives the same values (and is what a session
 * whose earlier events this process did not write gets): `session-totals.test.ts` compares the two on a corpus.
 *
 * Why: that SQL (one pass per type and model, a second for the slowest event) read back every event of every
 * session the backfill had just written, ~2.4 s of the ingest thread's ~60 CPU s at 1.6 GiB (V8 profile, issue 19.1).
 */

/** The events of one type and model in a session (dup 2 excepted): what its facts are summed from. */
export interface EventGroup {
  type: string;
  model: string | null;
  n: number;
  errors: number;
  first_ts: number | null;
  last_ts: number | null;
  tin: number;
  tout: number;
  tcached: number;
  dur: number;
  credits_nano: number | null;
  credited_calls: number;
}

/** What a refresh needs of a session's events: their groups in SQL's GROUP BY order, and the slowest one. */
export interface KnownTotals {
  groups: EventGroup[];
  /** `ORDER BY dur DESC, id LIMIT 1`; null without events */
  slowest: number | null;
}

/** The columns of an event row that its session's totals read (dup < 2 only). */
export interface TotalledEvent {
  id: number;
  type: string;
  model: string | null;
  status: number;
  ts: number | null;
  dur: number;
  tokensIn: number | null;
  tokensOut: number | null;
  tokensCached: number | null;
  creditsNano: number | null;
}

/** SQLite's order of the GROUP BY key: text by bytes (these are ASCII types and model ids), NULL first. */
function byTypeAndModel(a: EventGroup, b: EventGroup): number {
  if (a.type !== b.type) return a.type < b.type ? -1 : 1;
  if (a.model === b.model) return 0;
  if (a.model === null) return -1;
  if (b.model === null) return 1;
  return a.model < b.model ? -1 : 1;
}

export class SessionTotals {
  private byKey = new Map<string, EventGroup>();
  private slowestDur = -Infinity;
  private slowestId: number | null = null;

  add(e: TotalledEvent): void {
    // \u0000 cannot occur in either part; a null model is its own key, apart from a model named ''
    const key = e.model === null ? e.type : `${e.type}\u0000${e.model}`;
    let g = this.byKey.get(key);
    if (g === undefined) {
      g = { type: e.type, model: e.model, n: 0, errors: 0, first_ts: null, last_ts: null, tin: 0, tout: 0, tcached: 0, dur: 0, credits_nano: null, credited_calls: 0 };
      this.byKey.set(key, g);
    }
    g.n++;
    g.errors += e.status;
    // min(ts) and max(ts + dur) skip NULLs, as SQL's do
    if (e.ts !== null) {
      if (g.first_ts === null || e.ts < g.first_ts) g.first_ts = e.ts;
      const end = e.ts + e.dur;
      if (g.last_ts === null || end > g.last_ts) g.last_ts = end;
    }
    g.tin += e.tokensIn ?? 0;
    g.tout += e.tokensOut ?? 0;
    g.tcached += e.tokensCached ?? 0;
    g.dur += e.dur;
    if (e.creditsNano !== null) {
      g.credits_nano = (g.credits_nano ?? 0) + e.creditsNano;
      g.credited_calls++;
    }
    // the lowest id among the longest: ids arrive out of order when a rebuild refills a session file by file
    if (e.dur > this.slowestDur || (e.dur === this.slowestDur && this.slowestId !== null && e.id < this.slowestId)) {
      this.slowestDur = e.dur;
      this.slowestId = e.id;
    }
  }

  known(): KnownTotals {
    return { groups: [...this.byKey.values()].map((g) => ({ ...g })).sort(byTypeAndModel), slowest: this.slowestId };
  }
}
