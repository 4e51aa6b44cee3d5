import type { AppContext } from '../app-context';
import { noteChangedSessions, warmTriageModel } from './model';

const AFTER_BATCH_MS = 500;

/**
 * Keeps the triage model of the server's read connection current: loaded when the server starts and after
 * indexed batches (throttled), in steps that yield to the event loop. A triage request then finds the model
 * at most one batch behind and syncs the rest in a few milliseconds, instead of paying the first scan.
 */
export function keepTriageWarm(ctx: AppContext): void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const warm = () => {
    timer = null;
    if (ctx.db.open) void warmTriageModel(ctx.db).catch(() => undefined); // a request reports real failures
  };
  setImmediate(warm).unref?.();
  ctx.bus.on('indexed', ({ sessionIds }) => {
    if (ctx.db.open) noteChangedSessions(ctx.db, sessionIds);
    if (timer !== null) return;
    timer = setTimeout(warm, AFTER_BATCH_MS);
    timer.unref?.();
  });
}

/** Awaited by each triage handler: resolves once the model has caught up (immediately when it is warm). */
export function triageReady(ctx: AppContext): Promise<void> {
  return warmTriageModel(ctx.db).catch(() => undefined);
}
