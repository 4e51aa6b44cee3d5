import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rawLines } from '../db/raw-lines';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { chunkRanges, deflateRanges } from './archive-chunks';
import { SLOT_BYTES } from './batch-ring';
import { DEFLATE_THREAD_NICE, DeflateThread, type PendingChunks } from './deflate-thread';
import { readLines } from './read-lines';
import { BATCH_BYTES } from './tail-file';

const T = 1775000000000;
const span = (n: number) => n.toString(16).padStart(16, '0');
const call = (i: number, pad = 100) =>
  line({ ts: T + i, dur: 1, sid: 's1', type: 'tool_call', name: 'tool:read_file', spanId: span(i), parentSpanId: span(1), status: 'ok', attrs: { result: `line ${i} `.repeat(pad) } });
const linesOf = (n: number, pad = 100) => Array.from({ length: n }, (_, i) => ({ bytes: Buffer.from(call(i + 2, pad).trimEnd()) }));

/** What the ingest thread itself would store for these lines. */
const expected = (lines: { bytes: Buffer }[]) => deflateRanges(chunkRanges(lines));

let threads: DeflateThread[] = [];
let fx: FixtureDb | undefined;
afterEach(() => {
  for (const t of threads) t.stop();
  threads = [];
  fx?.cleanup();
  fx = undefined;
  vi.restoreAllMocks();
});
const deflater = (waitMs?: number) => {
  const t = new DeflateThread(waitMs);
  threads.push(t);
  return t;
};

describe('the deflate thread', () => {
  it("deflates a batch's chunks exactly as the ingest thread would, three slots in flight at once", () => {
    const t = deflater();
    const batches = [linesOf(600), linesOf(3), linesOf(250, 300)];
    const pending = batches.map((lines, i) => t.deflate(i, lines));
    expect(pending.map((p) => p.where)).toEqual(['thread', 'thread', 'thread']);
    expect(t.jobs).toBe(3);
    pending.forEach((p, i) => {
      expect(p.ranges.map((r) => [r.start, r.end])).toEqual(chunkRanges(batches[i]).map((r) => [r.start, r.end]));
      expect(p.take()).toEqual(expected(batches[i]));
    });
    // a slot used again once its batch is written
    const again = linesOf(40, 7);
    expect(t.deflate(0, again).take()).toEqual(expected(again));
  });

  it('a batch larger than its shared slot, or an empty one, is deflated on the calling thread', () => {
    const t = deflater();
    const huge = [{ bytes: Buffer.alloc(SLOT_BYTES + 1, 'a') }];
    const p = t.deflate(0, huge);
    expect(p.where).toBe('here');
    expect(zlib.inflateRawSync(p.take()[0]).equals(huge[0].bytes)).toBe(true);
    expect(t.deflate(1, []).take()).toEqual([]);
  });

  it('a thread that died: its batches and every later one are deflated on the calling thread', async () => {
    const t = deflater();
    const lines = linesOf(300);
    expect(t.deflate(0, lines).take()).toEqual(expected(lines));
    await t.crashForTest();
    const after = t.deflate(1, lines);
    expect(after.where).toBe('here');
    expect(after.take()).toEqual(expected(lines));
    expect(t.working).toBe(false);
  });

  it('a thread that stops answering unnoticed: take() gives up after its wait and deflates here, then never uses the thread again', async () => {
    const t = deflater(150);
    const first = linesOf(10);
    expect(t.deflate(0, first).take()).toEqual(expected(first));
    await t.crashForTest(true);
    const lines = linesOf(300);
    const p = t.deflate(1, lines);
    expect(p.where).toBe('thread'); // handed over: nothing told this side the thread is gone
    const started = performance.now();
    expect(p.take()).toEqual(expected(lines));
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(t.working).toBe(false);
    expect(t.deflate(2, lines).where).toBe('here');
  });
});

describe('a backfill through the deflate thread', () => {
  it('every batch of every file goes to the thread, and the archive holds each line as written', async () => {
    const where: PendingChunks['where'][] = [];
    const real = DeflateThread.prototype.deflate;
    vi.spyOn(DeflateThread.prototype, 'deflate').mockImplementation(function (this: DeflateThread, ...args) {
      const p = real.apply(this, args);
      where.push(p.where);
      return p;
    });
    // 3.5 MB: several batches, all in one file turn (the next batch is read ahead while one is written)
    const main = [line({ ts: T, dur: 0, sid: 's1', type: 'session_start', name: 'session_start', spanId: span(1), status: 'ok', attrs: {} })];
    for (let i = 2, size = 0; size < 3.5 * 1024 * 1024; i++) {
      main.push(call(i));
      size += main.at(-1)!.length;
    }
    fx = await fixtureDb({ 's1/main.jsonl': main.join(''), 's1/title-s1.jsonl': call(2) });
    const file = path.join(fx.logsDir(), 's1/main.jsonl');
    const fd = fs.openSync(file, 'r');
    let batches = 0;
    for (let offset = 0, size = fs.fstatSync(fd).size; offset < size; batches++) offset = readLines(fd, offset, size, BATCH_BYTES).nextOffset;
    fs.closeSync(fd);
    expect(batches).toBeGreaterThanOrEqual(3);
    expect(where).toEqual(Array(batches + 1).fill('thread'));

    const rows = fx.db.prepare("SELECT l.id, l.chunk_id FROM lines l JOIN files f ON f.id = l.file_id WHERE f.path LIKE '%main.jsonl' ORDER BY l.id").all() as { id: number; chunk_id: number }[];
    const texts = rawLines(fx.db).texts(rows.map((r) => r.id));
    expect(rows.map((r) => texts.get(r.id)! + '\n')).toEqual(main);
    // chunk ids given before the chunks were written: every line's chunk exists, numbered from 1 without a gap
    const chunks = fx.db.prepare('SELECT id FROM chunks ORDER BY id').pluck().all() as number[];
    expect(chunks).toEqual(Array.from({ length: chunks.length }, (_, i) => i + 1));
    expect(new Set(rows.map((r) => r.chunk_id)).size).toBeGreaterThan(1);
  });
});

describe('the deflate thread yields the cores', () => {
  /** The nice value of each thread of this process, by thread id. */
  function nices(): Map<string, number> {
    const out = new Map<string, number>();
    for (const tid of fs.readdirSync('/proc/self/task')) {
      try {
        const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        out.set(tid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
      } catch {
        // a thread that ended meanwhile
      }
    }
    return out;
  }

  it.runIf(process.platform === 'linux')('runs at nice DEFLATE_THREAD_NICE, and no other thread of the process does', () => {
    const before = nices();
    const t = deflater();
    const lines = linesOf(20);
    expect(t.deflate(0, lines).take()).toEqual(expected(lines)); // started, and it has deflated a batch: it set its nice first
    const lowered = [...nices()].filter(([tid, nice]) => !before.has(tid) && nice === DEFLATE_THREAD_NICE);
    expect(lowered).toHaveLength(1);
    for (const [tid, nice] of nices()) if (before.has(tid)) expect(nice).toBe(before.get(tid));
  });
});
