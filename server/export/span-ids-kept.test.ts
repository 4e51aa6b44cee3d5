import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { exportFixtureFiles, PARENT, T0 } from './export-fixture';

// Forwarding asks for a family's spans 500 events at a time, and each ask derived the OTLP ids of the whole tree again
// (~0.9 s a batch for the largest family of the bench archive): they are kept with the cached tree now.

const derived = vi.hoisted(() => ({ ids: 0 }));
vi.mock('./span-ids', async (actual) => {
  const m = await actual<typeof import('./span-ids')>();
  return { ...m, spanIdOf: (...a: Parameters<typeof m.spanIdOf>) => (derived.ids++, m.spanIdOf(...a)) };
});
const { sessionSpans } = await import('./session-spans');

let fx: FixtureDb;
beforeAll(async () => {
  fx = await fixtureDb(exportFixtureFiles());
});
afterAll(() => fx.cleanup());

describe('the OTLP ids of a tree', () => {
  it('are derived once while the tree stays the same, and again (the same for the lines it had) when it grows', async () => {
    derived.ids = 0;
    const all = sessionSpans(fx.db, PARENT)!;
    const once = derived.ids;
    expect(once).toBe(all.spans.length);
    const first = all.spans.slice(0, 3).map((s) => s.entry.id);
    const some = sessionSpans(fx.db, PARENT, (id) => first.includes(id))!;
    expect(some.spans.map((s) => s.spanId)).toEqual(all.spans.slice(0, 3).map((s) => s.spanId));
    expect(derived.ids).toBe(once);
    // another trace (a child log forwarded before its parent's tree reached it) has ids of its own
    sessionSpans(fx.db, PARENT, undefined, 'another-root');
    expect(derived.ids).toBe(2 * once);

    const file = path.join(fx.logsDir(), PARENT, 'main.jsonl');
    fs.appendFileSync(file, line({ ts: T0 + 20_000, dur: 5, sid: PARENT, type: 'tool_call', name: 'read_file', spanId: '0000000000000099', parentSpanId: '0000000000000001', status: 'ok', attrs: { args: '{}', result: 'ok' } }));
    await fx.reindex();
    derived.ids = 0;
    const grown = sessionSpans(fx.db, PARENT)!;
    expect(grown.spans.length).toBe(all.spans.length + 1);
    expect(derived.ids).toBe(grown.spans.length);
    const before = new Map(all.spans.map((s) => [s.entry.id, s.spanId]));
    for (const s of grown.spans) if (before.has(s.entry.id)) expect(s.spanId).toBe(before.get(s.entry.id));
  });
});
