// `npx tsx --expose-gc bench/measure/span-tree-probe.ts --db FILE [--session ID] [--runs N]`: builds the span tree of
// the session with the most events in its family (or of --session) from a finished archive, in a process of its own,
// and prints its build time by phase, the peak RSS of the build (VmHWM) and the heap it keeps: what a change to the
// tree's loading or building is compared by, run against run (issue 19.3: under query load the read worker's peak was
// this build).
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { openReadDb } from '../../server/db/open';
import { buildTimings, sessionTree } from '../../server/spans/tree-cache';

const { values } = parseArgs({ options: { db: { type: 'string' }, session: { type: 'string' }, runs: { type: 'string', default: '1' } } });
if (!values.db) throw new Error('--db FILE is required');

const statusKb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);
const mb = (bytes: number) => Math.round(bytes / 1048576);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

const db = openReadDb(values.db);
const sessionId =
  values.session ??
  (db.prepare('SELECT coalesce(s.parent_id, s.id) id FROM sessions s GROUP BY 1 ORDER BY sum(s.event_count) DESC LIMIT 1').pluck().get() as string);
gc();
const heapBefore = process.memoryUsage().heapUsed;
for (let run = 0; run < Number(values.runs); run++) {
  // A fresh tree each run: the cache keys on the connection.
  const conn = run === 0 ? db : openReadDb(values.db);
  gc();
  // "5" resets the peak (VmHWM) to the current RSS, so each run's peak is its own.
  fs.writeFileSync('/proc/self/clear_refs', '5');
  const rssBefore = statusKb('VmRSS');
  const t = performance.now();
  const tree = sessionTree(conn, sessionId, Number.MAX_SAFE_INTEGER);
  const ms = performance.now() - t;
  const peak = statusKb('VmHWM');
  gc();
  const kept = process.memoryUsage();
  console.log(
    JSON.stringify({
      sessionId,
      events: tree?.tree.rows.length ?? 0,
      nodes: tree?.tree.length ?? 0,
      ms: Math.round(ms),
      phases: { ...buildTimings },
      rssBeforeMb: Math.round(rssBefore / 1024),
      peakRssMb: Math.round(peak / 1024),
      buildRssMb: Math.round((peak - rssBefore) / 1024),
      keptHeapMb: mb(kept.heapUsed - heapBefore),
      keptArrayBuffersMb: mb(kept.arrayBuffers),
    }),
  );
  if (conn !== db) conn.close();
}
