// CLI: npx tsx bench/measure/backfill-ratio.ts --corpus DIR --db FILE [--runs 3]
// The backfill row alone, as a ratio to a JSON.parse pass over the same files in the same minute: each run reads
// the corpus once bare (jsonParseCeiling), then indexes it into a fresh database with indexOnce, in this process.
// Prints each run and the medians, in wall time and in CPU time of this process (on a machine shared with other
// work the wall time of a 60 s backfill and of a 3 s ceiling see different loads; their CPU times do not).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openWriteDb, removeDatabaseFiles } from '../../server/db/open';
import { ensureSchema } from '../../server/db/schema';
import { readIntoPageCache } from '../lib/page-cache';
import { indexOnce } from '../../server/ingest/index-once';
import { jsonParseCeiling } from './json-parse-ceiling';

const { values } = parseArgs({ options: { corpus: { type: 'string' }, db: { type: 'string' }, runs: { type: 'string', default: '3' } } });
if (!values.corpus || !values.db) {
  console.log('usage: npx tsx bench/measure/backfill-ratio.ts --corpus DIR --db FILE [--runs 3]');
  process.exit(2);
}
const corpus = path.resolve(values.corpus);
const manifest = JSON.parse(fs.readFileSync(path.join(corpus, 'manifest.json'), 'utf8')) as { bytes: number; files: { path: string }[] };
const files = manifest.files.map((f) => (path.isAbsolute(f.path) ? f.path : path.join(corpus, f.path)));
const mb = manifest.bytes / 1e6;
const cpuSeconds = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const rates: number[] = [];
  const cpuRates: number[] = [];
  const cpuRatios: number[] = [];
  const ratios: number[] = [];
  for (let run = 1; run <= Number(values.runs); run++) {
    readIntoPageCache(corpus); // both passes read warm files (bench/lib/page-cache.ts)
    const c0 = process.cpuUsage();
    const ceiling = jsonParseCeiling(files);
    const ceilingCpu = cpuSeconds(process.cpuUsage(c0));
    removeDatabaseFiles(values.db!);
    const db = openWriteDb(values.db!);
    ensureSchema(db);
    const t = performance.now();
    const c1 = process.cpuUsage();
    const indexer = await indexOnce(db, [corpus]);
    await indexer.stop();
    const s = (performance.now() - t) / 1000;
    const cpu = cpuSeconds(process.cpuUsage(c1));
    db.close();
    const rate = mb / s;
    rates.push(rate);
    ratios.push(rate / ceiling.mbPerSecond);
    cpuRates.push(mb / cpu);
    cpuRatios.push(ceilingCpu / cpu);
    console.log(
      `run ${run}: backfill ${mb.toFixed(0)} MB in ${s.toFixed(1)} s = ${rate.toFixed(1)} MB/s (${cpu.toFixed(1)} CPU s = ${(mb / cpu).toFixed(1)} MB per CPU s); ` +
        `JSON.parse ceiling ${ceiling.mbPerSecond.toFixed(0)} MB/s (${(mb / ceilingCpu).toFixed(0)} MB per CPU s); ${((100 * rate) / ceiling.mbPerSecond).toFixed(1)}% of it (${((100 * ceilingCpu) / cpu).toFixed(1)}% in CPU time)`,
    );
  }
  console.log(`median: ${median(rates).toFixed(1)} MB/s, ${(100 * median(ratios)).toFixed(1)}% of the JSON.parse ceiling; in CPU time ${median(cpuRates).toFixed(1)} MB per CPU s, ${(100 * median(cpuRatios)).toFixed(1)}% of the ceiling's`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
