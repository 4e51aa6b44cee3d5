import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inOneSnapshot } from '../db/one-snapshot';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { recordTriageSteps } from '../test-support/triage-steps';
import { listEvents } from './events';
import { EventEmitter } from 'node:events';
import type { AppContext } from '../app-context';
import { inTriageSnapshot, keepTriageWarm, triageReady, WARM_EVERY_MS } from './keep-warm';
import { STEP_IDS, TriageModel, warmTriageModel } from './model';
import { EventListQuery } from '../../shared/api';

const S = '22222222-2222-4222-8222-222222222222';
const T0 = Date.now() - 3_600_000;
let seq = 0;
const call = (dur: number) =>
  line({ ts: T0 + ++seq, dur, sid: S, type: 'llm_request', name: 'chat:gpt-4.1', spanId: `span-${seq}`, parentSpanId: 'R', status: 'ok', attrs: { model: 'gpt-4.1', inputTokens: 10, outputTokens: 10, ttft: 100 } });
const calls = (n: number) => Array.from({ length: n }, () => call(6000)).join('');

let fx: FixtureDb | null = null;
afterEach(() => {
  vi.restoreAllMocks();
  fx?.cleanup();
  fx = null;
});

/**
 * A commit lands just after the warm-up has caught up (the ingest commits on its own thread, at any time): the
 * warm-up's `warm` is wrapped so that, the first time it resolves, 2 × STEP_IDS + 300 more calls are indexed.
 * Returns the ids each `step` that loaded any loaded, in order: the handler's own sync shows as the last one.
 */
async function commitAfterFirstWarmUp(handler: (fx: FixtureDb) => Promise<unknown>): Promise<{ loaded: number[]; answer: unknown }> {
  fx = await fixtureDb({ [`${S}/main.jsonl`]: calls(50) });
  const f = fx;
  await warmTriageModel(f.db);
  const warm = TriageModel.prototype.warm;
  let committed = false;
  vi.spyOn(TriageModel.prototype, 'warm').mockImplementation(async function (this: TriageModel) {
    await warm.call(this);
    if (committed) return;
    committed = true;
    fs.appendFileSync(`${f.logsDir()}/${S}/main.jsonl`, calls(2 * STEP_IDS + 300));
    await f.reindex();
  });
  const steps = recordTriageSteps();
  const answer = await handler(f);
  return { loaded: steps.filter((n) => n > 0), answer };
}

describe('a triage handler (inTriageSnapshot)', () => {
  // a threshold below the slow one: the model's list (the default slow list is SQL's alone, eventListNeedsModel)
  const query = EventListQuery.parse({ min: '1000' });

  it('never loads more than one warm-up step of events in its own snapshot when a commit lands after the warm-up', async () => {
    const { loaded, answer } = await commitAfterFirstWarmUp((f) => inTriageSnapshot({ db: f.db }, (db) => listEvents(db, query)));
    // the commit's 4,300 ids: loaded in warm-up steps that yield, none larger than STEP_IDS
    expect(loaded).toEqual([STEP_IDS, STEP_IDS, 300]);
    // and the answer is of the index with the commit: every call is slower than the 1 s threshold
    expect((answer as { total: number }).total).toBe(50 + 2 * STEP_IDS + 300);
  });

  it('(what it replaced: the warm-up, then the snapshot, loaded the whole commit at once, holding the event loop)', async () => {
    const { loaded, answer } = await commitAfterFirstWarmUp(async (f) => {
      await triageReady({ db: f.db });
      return inOneSnapshot(f.db, (db) => listEvents(db, query));
    });
    expect(loaded).toEqual([2 * STEP_IDS + 300]);
    expect((answer as { total: number }).total).toBe(50 + 2 * STEP_IDS + 300);
  });
});

describe('keepTriageWarm', () => {
  it("starts a warm-up on a commit's notice, and at most one every WARM_EVERY_MS (then once that much time has passed)", async () => {
    fx = await fixtureDb({ [`${S}/main.jsonl`]: calls(5) });
    const warms = vi.spyOn(TriageModel.prototype, 'warm').mockResolvedValue(undefined);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate'] });
    try {
      let now = 10_000;
      const bus = new EventEmitter();
      keepTriageWarm({ db: fx.db, bus } as unknown as AppContext, () => now);
      vi.advanceTimersByTime(0);
      expect(warms).toHaveBeenCalledTimes(1); // at start
      now += 2_000;
      bus.emit('indexed', { sessionIds: [S] });
      vi.advanceTimersByTime(0);
      // at once: it waited WARM_EVERY_MS before, while a request after the commit paid the whole group's sync
      expect(warms).toHaveBeenCalledTimes(2);
      now += 100;
      bus.emit('indexed', { sessionIds: [S] });
      bus.emit('indexed', { sessionIds: [S] });
      vi.advanceTimersByTime(WARM_EVERY_MS - 101);
      expect(warms).toHaveBeenCalledTimes(2);
      vi.advanceTimersByTime(1);
      expect(warms).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
