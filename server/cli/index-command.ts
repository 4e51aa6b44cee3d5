import type Database from 'better-sqlite3';
import fs from 'node:fs';
import type { Options } from '../config';
import { isCorruption } from '../db/damaged-index';
import { openWriteDbOrRecover, rebuildDamagedIndex } from '../db/open';
import { rebuildDerived } from '../db/rebuild';
import { derivedNeedRebuild, ensureSchema } from '../db/schema';
import { indexTotals } from '../counts/index-totals';
import { indexOnce } from '../ingest/index-once';
import { IngestStore } from '../ingest/store';
import { resolveDbPath, resolveRoots } from './locations';

/** `chronoscope index`: index everything once and print one summary line. */
export async function runIndex(opts: Options): Promise<number> {
  const { roots, withImports } = await resolveRoots(opts);
  if (roots.length === 0 && withImports.length === 0) {
    process.stderr.write('no VS Code user-data folder found: pass --logs DIR\n');
    return 1;
  }
  const dbPath = resolveDbPath(opts);
  const started = performance.now();
  let db = openDb(openWriteDbOrRecover(dbPath));
  let before = indexTotals(db);
  let indexer;
  try {
    indexer = await indexOnce(db, withImports);
  } catch (err) {
    // A damaged page the open did not read (only the header is checked): move the file aside, start again.
    if (!isCorruption(err)) throw err;
    db.close();
    db = openDb(rebuildDamagedIndex(dbPath, err instanceof Error ? err.message : String(err)));
    before = indexTotals(db);
    indexer = await indexOnce(db, withImports);
  }
  const after = indexTotals(db);
  db.close();
  const seconds = (performance.now() - started) / 1000;
  const mb = indexer.progress.bytesTotal / 1e6;
  const missing = indexer.roots.filter((r) => !r.exists);
  for (const r of missing) process.stderr.write(`not found: ${r.path}${r.error ? ` (${r.error})` : ''}\n`);
  const summary = {
    files: after.files,
    companions: after.companions,
    sessions: after.sessions,
    events: after.events,
    badLines: after.badLines,
    newEvents: after.events - before.events,
    mb: Number(mb.toFixed(1)),
    seconds: Number(seconds.toFixed(2)),
    mbPerSecond: Number((mb / Math.max(seconds, 1e-3)).toFixed(1)),
    db: dbPath,
    dbMb: Number((fs.statSync(dbPath).size / 1e6).toFixed(1)),
  };
  if (opts.json) process.stdout.write(JSON.stringify(summary) + '\n');
  else
    process.stdout.write(
      `indexed ${summary.files} log files (+${summary.companions} companions), ${summary.sessions} sessions, ${summary.events} events (${summary.newEvents} new), ` +
        `${summary.badLines} bad lines, ${summary.mb} MB in ${summary.seconds} s (${summary.mbPerSecond} MB/s) → ${dbPath}\n`,
    );
  return 0;
}

function openDb({ db, recovered }: { db: Database.Database; recovered: string | null }): Database.Database {
  if (recovered) process.stderr.write(recovered + '\n');
  if (ensureSchema(db) || derivedNeedRebuild(db)) {
    const n = rebuildDerived(db, new IngestStore(db));
    if (n > 0) process.stderr.write(`rebuilt derived tables from ${n} archived lines\n`);
  }
  return db;
}

