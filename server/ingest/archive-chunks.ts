import zlib from 'node:zlib';

/** Bytes of lines per archive chunk before compression: large enough to compress well, small enough to inflate in ~25 µs. */
export const CHUNK_BYTES = 64 * 1024;

/** zlib's level for the archive's chunks (level 1 was no faster on JSON lines and 6% larger). */
export const DEFLATE_LEVEL = 3;
const DEFLATE_OPTIONS: zlib.ZlibOptions = { level: DEFLATE_LEVEL };

/** Lines `start` to `end` (exclusive) of a batch, stored together as one row of `chunks`; `bytes` are theirs joined. */
export interface ChunkRange {
  start: number;
  end: number;
  bytes: Buffer;
}

/**
 * Consecutive lines up to about CHUNK_BYTES each (a longer line alone), in order, and their bytes joined: into
 * `arena` (a batch ring's slot, batch-ring.ts, or the deflate thread's shared one) while the batch fits in it, else
 * into buffers of their own. `arenaOnly` (the deflate thread reads nothing else): a line alone is copied into the
 * arena too, and a batch that does not fit gives null.
 */
export function chunkRanges(lines: readonly { bytes: Buffer }[], arena: Buffer | undefined, arenaOnly: true): ChunkRange[] | null;
export function chunkRanges(lines: readonly { bytes: Buffer }[], arena?: Buffer): ChunkRange[];
export function chunkRanges(lines: readonly { bytes: Buffer }[], arena?: Buffer, arenaOnly = false): ChunkRange[] | null {
  const ranges: ChunkRange[] = [];
  let start = 0;
  let used = 0;
  while (start < lines.length) {
    let end = start;
    let size = 0;
    while (end < lines.length && (end === start || size + lines[end].bytes.length <= CHUNK_BYTES)) size += lines[end++].bytes.length;
    let bytes: Buffer;
    if (end - start === 1 && !arenaOnly) bytes = lines[start].bytes;
    else if (arena !== undefined && used + size <= arena.length) {
      bytes = arena.subarray(used, used + size);
      let at = 0;
      for (let i = start; i < end; i++) at += lines[i].bytes.copy(bytes, at);
      used += size;
    } else if (arenaOnly) return null;
    else bytes = Buffer.concat(lines.slice(start, end).map((l) => l.bytes), size);
    ranges.push({ start, end, bytes });
    start = end;
  }
  return ranges;
}

/** Each range's bytes deflated, on this thread. */
export function deflateRanges(ranges: readonly ChunkRange[]): Buffer[] {
  return ranges.map((r) => zlib.deflateRawSync(r.bytes, DEFLATE_OPTIONS));
}
