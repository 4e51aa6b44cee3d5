import zlib from 'node:zlib';
import { expect, it } from 'vitest';
import { CHUNK_BYTES, chunkRanges, deflateRanges } from './archive-chunks';

const line = (n: number, size: number) => ({ bytes: Buffer.from(`{"n":${n},"pad":"${'x'.repeat(size)}"}`) });
const joined = (lines: { bytes: Buffer }[], start: number, end: number) => Buffer.concat(lines.slice(start, end).map((l) => l.bytes));

it('packs consecutive lines up to CHUNK_BYTES per chunk (a longer line alone), each chunk deflating to its lines joined', () => {
  const lines = [line(1, 30_000), line(2, 30_000), line(3, 30_000), line(4, 100_000), line(5, 10), line(6, 10)];
  const ranges = chunkRanges(lines);
  expect(ranges.map((c) => [c.start, c.end])).toEqual([
    [0, 2],
    [2, 3],
    [3, 4],
    [4, 6],
  ]);
  expect(ranges.every((c) => c.end === c.start + 1 || c.bytes.length <= CHUNK_BYTES)).toBe(true);
  const data = deflateRanges(ranges);
  ranges.forEach((c, k) => {
    expect(c.bytes.equals(joined(lines, c.start, c.end))).toBe(true);
    expect(zlib.inflateRawSync(data[k]).equals(joined(lines, c.start, c.end))).toBe(true);
  });
  expect(chunkRanges([])).toEqual([]);
});

it('joins chunks into an arena while the batch fits (the same chunks as without one), else into buffers of their own', () => {
  const lines = [line(1, 30_000), line(2, 30_000), line(3, 30_000), line(4, 10), line(5, 10)];
  const arena = Buffer.alloc(100_000);
  const withArena = chunkRanges(lines, arena);
  expect(withArena).toEqual(chunkRanges(lines));
  // the first chunk (lines 1–2) joined at the arena's start, the last (3–5) after it
  const all = joined(lines, 0, lines.length);
  expect(arena.subarray(0, all.length).equals(all)).toBe(true);
  // an arena too small for a chunk: that chunk gets a buffer of its own, and the result does not change
  const small = Buffer.alloc(10);
  expect(chunkRanges(lines, small)).toEqual(withArena);
  expect(small.equals(Buffer.alloc(10))).toBe(true);
});

it('arenaOnly (the deflate thread reads the arena alone): a line alone is copied in too, and a batch that does not fit gives null', () => {
  const lines = [line(1, 70_000), line(2, 10)];
  const arena = Buffer.alloc(80_000);
  const ranges = chunkRanges(lines, arena, true)!;
  expect(ranges.map((c) => [c.start, c.end])).toEqual([
    [0, 1],
    [1, 2],
  ]);
  for (const c of ranges) expect(c.bytes.buffer).toBe(arena.buffer);
  expect(ranges[0].bytes.byteOffset).toBe(arena.byteOffset);
  expect(ranges[1].bytes.byteOffset).toBe(arena.byteOffset + lines[0].bytes.length);
  expect(chunkRanges(lines, Buffer.alloc(70_000), true)).toBeNull();
});
