import fs from 'node:fs';
import { DEBUG_LOG_SETTING } from '../../shared/debug-log-setting';
import { formatCount, plural } from '../../shared/format-numbers';
import type { Options } from '../config';
import { indexTotals } from '../counts/index-totals';
import { EXIT_NOTHING_FOUND, EXIT_OK } from './cli-error';
import { noLogsHint, resolveDbPath } from './locations';
import { commandRoots, updateIndex } from './open-index';

/**
 * `chronoscope index`: index everything once and print one summary line; exit 1 when no log file was found. A
 * damaged index is moved aside and rebuilt from the logs (updateIndex), with exact counts.
 */
export async function runIndex(opts: Options): Promise<number> {
  const { roots, withImports } = await commandRoots(opts);
  if (withImports.length === 0) {
    process.stderr.write(`no VS Code user-data folder found: pass --logs DIR, or turn on ${DEBUG_LOG_SETTING} in VS Code\n`);
    return EXIT_NOTHING_FOUND;
  }
  const dbPath = resolveDbPath(opts);
  const started = performance.now();
  let before = { events: 0 };
  const { db, indexer } = await updateIndex(dbPath, withImports, (opened) => (before = indexTotals(opened)));
  let after;
  try {
    after = indexTotals(db);
  } finally {
    db.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const mb = indexer.progress.bytesTotal / 1e6;
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
      `indexed ${plural(summary.files, 'log file')} (+${plural(summary.companions, 'companion')}), ${plural(summary.sessions, 'session')}, ` +
        `${plural(summary.events, 'event')} (${formatCount(summary.newEvents)} new), ${plural(summary.badLines, 'bad line')}, ${summary.mb} MB in ${summary.seconds} s (${summary.mbPerSecond} MB/s) → ${dbPath}\n`,
    );
  if (indexer.progress.filesTotal === 0) {
    process.stderr.write(noLogsHint(roots.length > 0 ? roots : withImports));
    return EXIT_NOTHING_FOUND;
  }
  return EXIT_OK;
}
