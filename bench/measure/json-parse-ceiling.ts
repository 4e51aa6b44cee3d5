import fs from 'node:fs';

/**
 * The ceiling for ingest: read every file in 1 MiB chunks, split lines and JSON.parse each one, nothing else.
 * Run in the benchmark's own process, on the same files, right before the backfill it is compared with.
 */
export function jsonParseCeiling(files: string[]): { bytes: number; seconds: number; mbPerSecond: number; lines: number } {
  const start = performance.now();
  let bytes = 0;
  let lines = 0;
  const buf = Buffer.allocUnsafe(1024 * 1024);
  for (const file of files) {
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      continue;
    }
    let carry = '';
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n <= 0) break;
      bytes += n;
      const text = carry + buf.toString('utf8', 0, n);
      const parts = text.split('\n');
      carry = parts.pop() ?? '';
      for (const p of parts) {
        lines++;
        try {
          JSON.parse(p);
        } catch {
          /* a bad line costs the same attempt */
        }
      }
    }
    fs.closeSync(fd);
  }
  const seconds = (performance.now() - start) / 1000;
  return { bytes, seconds, mbPerSecond: bytes / 1e6 / seconds, lines };
}
