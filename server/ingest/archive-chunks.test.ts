import zlib from 'node:zlib';
import { expect, it } from 'vitest';
import { CHUNK_BYTES, deflateChunks as deflateObjects, deflateChunksSync as deflateObjectsSync, lineBytesOf } from './archive-chunks';

const deflateChunks = (lines: { bytes: Buffer }[], arena?: Buffer) => deflateObjects(lineBytesOf(lines), arena);
const deflateChunksSync = (lines: { bytes: Buffer }[], arena?: Buffer) => deflateObjectsSync(lineBytesOf(lines), arena);

const line = (n: number, size: number) => ({ bytes: Buffer.from(`{"n":${n},"pad":"${'x'.repeat(size)}"}`) });

it('packs consecutive lines up to CHUNK_BYTES per chunk (a longer line alone), the same on the pool as on this thread', async () => {
  const lines = [line(1, 30_000), line(2, 30_000), line(3, 30_000), line(4, 100_000), line(5, 10), line(6, 10)];
  const pooled = await deflateChunks(lines);
  expect(pooled.map((c) => [c.start, c.end])).toEqual([
    [0, 2],
    [2, 3],
    [3, 4],
    [4, 6],
  ]);
  expect(pooled.every((c) => c.end === c.start + 1 || Buffer.concat(lines.slice(c.start, c.end).map((l) => l.bytes)).length <= CHUNK_BYTES)).toBe(true);
  for (const c of pooled) expect(zlib.inflateRawSync(c.data).equals(Buffer.concat(lines.slice(c.start, c.end).map((l) => l.bytes)))).toBe(true);
  expect(deflateChunksSync(lines)).toEqual(pooled);
  expect(await deflateChunks([])).toEqual([]);
});

it('joins chunks into an arena while the batch fits (the same chunks as without one), else into buffers of their own', async () => {
  const lines = [line(1, 30_000), line(2, 30_000), line(3, 30_000), line(4, 10), line(5, 10)];
  const arena = Buffer.alloc(100_000);
  const withArena = deflateChunksSync(lines, arena);
  expect(withArena).toEqual(deflateChunksSync(lines));
  expect(await deflateChunks(lines, arena)).toEqual(withArena);
  // the first chunk (lines 1–2) joined at the arena's start, the last (3–5) after it
  const joined = Buffer.concat(lines.map((l) => l.bytes));
  expect(arena.subarray(0, joined.length).equals(joined)).toBe(true);
  // an arena too small for a chunk: that chunk gets a buffer of its own, and the result does not change
  const small = Buffer.alloc(10);
  expect(deflateChunksSync(lines, small)).toEqual(withArena);
  expect(small.equals(Buffer.alloc(10))).toBe(true);
});
