import fs from 'node:fs';
import { removeDatabaseFiles } from '../../server/db/open';
import { readIntoPageCache } from '../lib/page-cache';
import { rssSampler } from '../lib/process-tree';
import { awaitBackfill, startServerProcess } from './server-process';
import { corpusRoots } from '../../server/corpus/corpus-roots';
import { memoryAt, readMemoryLog } from './memory-log';

/**
 * A backfill of `corpusDir` by the built server from an empty database, under the same query load as the main
 * backfill's first 90 s (`loadPaths`, one after another, 50 ms apart); the peak RSS of the server's process
 * tree and how long it took. The issue asks for the RSS bound at 0.25× and 1× the corpus: this is the 0.25×.
 */
export async function backfillPeakRss(opts: {
  corpusDir: string;
  dbPath: string;
  port: number;
  loadPaths: string[];
  loadMs: number;
}): Promise<{ seconds: number; peakRss: number; atPeak: string | null }> {
  removeDatabaseFiles(opts.dbPath);
  const memoryLog = `${opts.dbPath}.memory.jsonl`;
  fs.rmSync(memoryLog, { force: true });
  readIntoPageCache(opts.corpusDir); // every timed pass starts with the logs in the page cache (bench/lib/page-cache.ts)
  const t0 = performance.now();
  const server = await startServerProcess({ roots: corpusRoots(opts.corpusDir), dbPath: opts.dbPath, port: opts.port, memoryLog });
  const rss = rssSampler(server.child.pid as number);
  try {
    await awaitBackfill(server.base, t0, opts);
    const peakRss = rss.stop();
    return { seconds: (performance.now() - t0) / 1000, peakRss, atPeak: memoryAt(readMemoryLog(memoryLog), rss.peakAt()) };
  } finally {
    rss.stop();
    await server.stop();
    removeDatabaseFiles(opts.dbPath);
  }
}
