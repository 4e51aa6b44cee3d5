import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rawLines } from '../db/raw-lines';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import type { LineBytes } from './archive-chunks';
import { readLines } from './read-lines';
import { BATCH_BYTES } from './tail-file';

// Both deflates counted, each still doing its work: the archive written must be the same either way.
const calls = vi.hoisted(() => ({ pooled: [] as number[], here: [] as number[] }));
vi.mock('./archive-chunks', async (importOriginal) => {
  const real = await importOriginal<typeof import('./archive-chunks')>();
  return {
    ...real,
    deflateChunks: (lines: LineBytes) => (calls.pooled.push(lines.length), real.deflateChunks(lines)),
    deflateChunksSync: (lines: LineBytes) => (lines.length > 0 && calls.here.push(lines.length), real.deflateChunksSync(lines)),
  };
});

let fx: FixtureDb | undefined;
afterEach(() => {
  fx?.cleanup();
  fx = undefined;
  calls.pooled.length = 0;
  calls.here.length = 0;
});

const T = 1775000000000;
const span = (n: number) => n.toString(16).padStart(16, '0');
const call = (i: number) => line({ ts: T + i, dur: 1, sid: 's1', type: 'tool_call', name: 'tool:read_file', spanId: span(i), parentSpanId: span(1), status: 'ok', attrs: { result: `line ${i} `.repeat(100) } });

/** Lines of a main log of about `bytes`. */
function mainLog(bytes: number): string[] {
  const out = [line({ ts: T, dur: 0, sid: 's1', type: 'session_start', name: 'session_start', spanId: span(1), status: 'ok', attrs: {} })];
  let size = out[0].length;
  for (let i = 2; size < bytes; i++) {
    out.push(call(i));
    size += out.at(-1)!.length;
  }
  return out;
}

/** The line counts of the batches tail-file reads a file in. */
function batchSizes(file: string): number[] {
  const fd = fs.openSync(file, 'r');
  const size = fs.fstatSync(fd).size;
  const out: number[] = [];
  for (let offset = 0; offset < size; ) {
    const r = readLines(fd, offset, size, BATCH_BYTES);
    out.push(r.lines.length);
    offset = r.nextOffset;
  }
  fs.closeSync(fd);
  return out;
}

describe('a batch is deflated on the pool only when that overlaps the writing of another', () => {
  // The first batch of a file's turn has nothing to overlap: its deflate was started and awaited at once, and
  // the wait for the pool (a thread woken on a busy second core, then the event loop) was 11% of a backfill's
  // wall time against 1.5% for deflating those batches on the ingest thread (the bench corpus, 27,000 files).
  it('deflates the first batch of a turn here and the batches read ahead on the pool', async () => {
    // 3.5 MB: several batches, all in one turn (a file is read for 4 MB before the indexer turns to its queue)
    const main = mainLog(3.5 * 1024 * 1024);
    fx = await fixtureDb({ 's1/main.jsonl': main.join(''), 's1/title-s1.jsonl': call(2) });
    const batches = batchSizes(path.join(fx.logsDir(), 's1/main.jsonl'));
    expect(batches.length).toBeGreaterThanOrEqual(3);
    // main.jsonl: its first batch here, every other one read ahead on the pool; the one-line title log: here
    expect([...calls.here].sort((a, b) => a - b)).toEqual([1, batches[0]].sort((a, b) => a - b));
    expect(calls.pooled).toEqual(batches.slice(1));

    const rows = fx.db.prepare("SELECT l.id FROM lines l JOIN files f ON f.id = l.file_id WHERE f.path LIKE '%main.jsonl' ORDER BY l.id").all() as { id: number }[];
    const texts = rawLines(fx.db).texts(rows.map((r) => r.id));
    expect(rows.map((r) => texts.get(r.id)! + '\n')).toEqual(main);
  });
});
