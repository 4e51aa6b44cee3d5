import fs from 'node:fs';
import { timedGet } from '../lib/http';
import { rssSampler } from '../lib/process-tree';
import { startServerProcess } from './server-process';

/**
 * A backfill of `corpusDir` by the built server from an empty database, under the same query load as the main
 * backfill's first 90 s (`loadPaths`, one after another, 50 ms apart); the peak RSS of the server's process
 * tree and how long it took. The issue asks for the RSS bound at 0.25× and 1× the corpus: this is the 0.25×.
 */
export async function backfillPeakRss(opts: { corpusDir: string; dbPath: string; port: number; loadPaths: string[]; loadMs: number }): Promise<{ seconds: number; peakRss: number }> {
  for (const ext of ['', '-wal', '-shm']) fs.rmSync(opts.dbPath + ext, { force: true });
  const t0 = performance.now();
  const server = await startServerProcess({ roots: [opts.corpusDir], dbPath: opts.dbPath, port: opts.port });
  const rss = rssSampler(server.child.pid as number);
  try {
    for (;;) {
      if ((await timedGet(server.base, '/api/ready')).status === 200) break;
      const loaded = performance.now() - t0 < opts.loadMs;
      if (loaded) for (const p of opts.loadPaths) await timedGet(server.base, p);
      await new Promise((r) => setTimeout(r, loaded ? 50 : 250));
    }
    return { seconds: (performance.now() - t0) / 1000, peakRss: rss.stop() };
  } finally {
    rss.stop();
    await server.stop();
    for (const ext of ['', '-wal', '-shm']) fs.rmSync(opts.dbPath + ext, { force: true });
  }
}
