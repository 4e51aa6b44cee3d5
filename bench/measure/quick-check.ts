// CLI: npx tsx bench/measure/quick-check.ts DB [--runs 3]
// How long PRAGMA quick_check takes on an index (the check run after each start, server/db/damaged-index.ts):
// MB/s and the extrapolation to the 1.6 GiB benchmark database.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: 'string', default: '3' } } });
const file = positionals[0];
if (!file) {
  console.log('usage: npx tsx bench/measure/quick-check.ts DB [--runs 3]');
  process.exit(2);
}
const mb = fs.statSync(file).size / 1048576;
for (let i = 0; i < Number(values.runs); i++) {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const t = performance.now();
  const result = db.pragma('quick_check(5)', { simple: true });
  const s = (performance.now() - t) / 1000;
  db.close();
  console.log(`run ${i + 1}: ${mb.toFixed(0)} MB in ${s.toFixed(2)} s = ${(mb / s).toFixed(0)} MB/s (${String(result)}); 1.6 GiB at this rate: ${((1.6 * 1024) / (mb / s)).toFixed(1)} s`);
}
