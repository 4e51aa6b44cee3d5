import { promisify } from 'node:util';
import zlib from 'node:zlib';

/** Bytes of lines per archive chunk before compression: large enough to compress well, small enough to inflate in ~25 µs. */
export const CHUNK_BYTES = 64 * 1024;

const DEFLATE_OPTIONS: zlib.ZlibOptions = { level: 3 };
const deflateRaw = promisify(zlib.deflateRaw);

/** Lines `start` to `end` (exclusive) of a batch, stored together as one row of `chunks`. */
export interface PackedChunk {
  start: number;
  end: number;
  data: Buffer;
}

/** A batch's lines as the archive packs them: how many, and each one's bytes. */
export interface LineBytes {
  readonly length: number;
  lengthOf(i: number): number;
  bytesOf(i: number): Buffer;
}

/** Lines held as `{ bytes }` objects (processed lines, tests) as LineBytes. */
export function lineBytesOf(lines: readonly { bytes: Buffer }[]): LineBytes {
  return { length: lines.length, lengthOf: (i) => lines[i].bytes.length, bytesOf: (i) => lines[i].bytes };
}

/**
 * Consecutive lines up to about CHUNK_BYTES each (a longer line alone), in order, and their bytes joined: into
 * `arena` (a batch ring's slot, batch-ring.ts) while the batch fits in it, else into buffers of their own.
 */
function chunkRanges(lines: LineBytes, arena?: Buffer): { start: number; end: number; bytes: Buffer }[] {
  const ranges: { start: number; end: number; bytes: Buffer }[] = [];
  let start = 0;
  let used = 0;
  while (start < lines.length) {
    let end = start;
    let size = 0;
    while (end < lines.length && (end === start || size + lines.lengthOf(end) <= CHUNK_BYTES)) size += lines.lengthOf(end++);
    let bytes: Buffer;
    if (end - start === 1) bytes = lines.bytesOf(start);
    else if (arena !== undefined && used + size <= arena.length) {
      bytes = arena.subarray(used, used + size);
      let at = 0;
      for (let i = start; i < end; i++) at += lines.bytesOf(i).copy(bytes, at);
      used += size;
    } else bytes = Buffer.concat(Array.from({ length: end - start }, (_, k) => lines.bytesOf(start + k)), size);
    ranges.push({ start, end, bytes });
    start = end;
  }
  return ranges;
}

/**
 * A batch's archive chunks, deflated on the libuv pool: started as soon as the batch is read, they compress on
 * the other core while the ingest thread parses and writes the batch before it (tail-file.ts reads one ahead;
 * deflate was ~7% of the ingest thread).
 */
export function deflateChunks(lines: LineBytes, arena?: Buffer): Promise<PackedChunk[]> {
  return Promise.all(chunkRanges(lines, arena).map(async ({ start, end, bytes }) => ({ start, end, data: await deflateRaw(bytes, DEFLATE_OPTIONS) })));
}

/** The same chunks deflated on this thread (a batch not read ahead, which nothing would overlap: tail-file.ts; tests). */
export function deflateChunksSync(lines: LineBytes, arena?: Buffer): PackedChunk[] {
  return chunkRanges(lines, arena).map(({ start, end, bytes }) => ({ start, end, data: zlib.deflateRawSync(bytes, DEFLATE_OPTIONS) }));
}
