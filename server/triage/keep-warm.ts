import type Database from 'better-sqlite3';
import type { AppContext } from '../app-context';
import { inOneSnapshot } from '../db/one-snapshot';
import { noteChangedSessions, STEP_IDS, triageModelBehind, warmTriageModel } from './model';

/** Warm-ups start at most this often (live tailing commits every ~200 ms). */
export const WARM_EVERY_MS = 500;

/**
 * Keeps the triage model of the server's read connection current: loaded when the server starts and after
 * indexed batches, in steps that yield to the event loop. A triage request then finds the model at most one batch
 * behind and syncs the rest in a few milliseconds, instead of paying the first scan.
 *
 * A warm-up starts on the commit's notice, unless one started less than WARM_EVERY_MS ago (then once that much time
 * has passed). It used to start WARM_EVERY_MS after each notice: during a backfill, whose commit groups bring ~100,000
 * events every 4–5 s, a slow-list request in the half second after a commit waited for the whole group's sync, which
 * had not begun (the bench's computed requests during the backfill: p95 131 ms for /api/events?min=5000).
 */
export function keepTriageWarm(ctx: AppContext, clock: () => number = () => performance.now()): void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let started = -Infinity;
  const warm = () => {
    timer = null;
    started = clock();
    if (ctx.db.open) void warmTriageModel(ctx.db).catch(() => undefined); // a request reports real failures
  };
  setImmediate(warm).unref?.();
  ctx.bus.on('indexed', ({ sessionIds }) => {
    if (ctx.db.open) noteChangedSessions(ctx.db, sessionIds);
    if (timer !== null) return;
    timer = setTimeout(warm, Math.max(0, started + WARM_EVERY_MS - clock()));
    timer.unref?.();
  });
}

/** Awaited by each triage handler: resolves once the model has caught up (immediately when it is warm). */
export function triageReady(ctx: Pick<AppContext, 'db'>): Promise<void> {
  return warmTriageModel(ctx.db).catch(() => undefined);
}

/**
 * Times a handler goes back to the warm-up because a commit landed after it: then it syncs whatever is left, so
 * that an ingest committing faster than the warm-up steps can never starve a request.
 */
const MAX_REWARMS = 4;
const BEHIND = Symbol('behind');

/**
 * A triage handler's answer: `read` in one snapshot of the index, once the model has caught up with that snapshot
 * in steps that yield (triageReady). A commit can land between the end of the warm-up and the handler's snapshot
 * (during a backfill a group of ~100,000 events every 5 s, and the 100 triage requests of a burst of 200 wait for
 * one warm-up, then run one after another); the model's sync inside the snapshot then loaded that whole group at
 * once, 180–250 ms with the event loop held: the slowest /api/health of the bench's bursts (issue 19.4). Now a
 * snapshot that finds the model more than one warm-up step behind is let go and the handler waits for the warm-up
 * again: what its own sync loads is at most STEP_IDS ids (~5–10 ms).
 */
export async function inTriageSnapshot<T>(ctx: Pick<AppContext, 'db'>, read: (db: Database.Database) => T): Promise<T> {
  for (let rewarms = 0; ; rewarms++) {
    await triageReady(ctx);
    const answer = inOneSnapshot(ctx.db, (db) => (rewarms < MAX_REWARMS && triageModelBehind(db) > STEP_IDS ? BEHIND : read(db)));
    if (answer !== BEHIND) return answer;
  }
}
