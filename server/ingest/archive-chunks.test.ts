import zlib from 'node:zlib';
import { expect, it } from 'vitest';
import { CHUNK_BYTES, deflateChunks, deflateChunksSync } from './archive-chunks';

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
