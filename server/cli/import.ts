import { fsProblem } from '../fs-problem';
import { plural } from '../../shared/format-numbers';
import fs from 'node:fs';
import type { Options } from '../config';
import { openReadDb } from '../db/open';
import { importOtlp } from '../import/import-otlp';
import { OtlpReadError } from '../import/read-otlp';
import { importsRoot } from '../import/write-imported';
import { resolveDbPath } from './locations';
import { openIndexForQuery } from './open-index';

/**
 * `chronoscope import FILE...`: OTLP JSON (VS Code's export, Copilot's otel.outfile, our own export) into the
 * index as sessions marked imported. Exit 0 imported, 1 nothing new (every session already indexed), 2 a file
 * that cannot be read as OTLP.
 */
export async function runImport(opts: Options): Promise<number> {
  if (opts.positionals.length === 0) {
    process.stderr.write('chronoscope import: which file? `chronoscope import FILE.json` (OTLP JSON: one document or JSON lines)\n');
    return 2;
  }
  const dbPath = resolveDbPath(opts);
  const dir = importsRoot(dbPath);
  let imported = 0;
  for (const file of opts.positionals) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      process.stderr.write(`chronoscope import: ${fsProblem(file, err)}\n`);
      return 2;
    }
    const db = fs.existsSync(dbPath) ? openReadDb(dbPath) : null;
    try {
      const r = importOtlp(text, dir, db);
      for (const s of r.skipped) process.stderr.write(`skipped ${s}: the index has it from its own logs\n`);
      for (const w of r.written) process.stdout.write(`imported ${w.sessionId}: ${plural(w.lines, 'event')} in ${plural(w.files.length, 'log file')}\n`);
      imported += r.written.length;
    } catch (err) {
      if (err instanceof OtlpReadError) {
        process.stderr.write(`chronoscope import: ${file}: ${err.message}\n`);
        return 2;
      }
      throw err;
    } finally {
      db?.close();
    }
  }
  // Index now, so that search and triage have them at once (serve, if it runs, picks them up on its own).
  if (imported > 0 && !opts.noIndex) (await openIndexForQuery(opts)).close();
  return imported > 0 ? 0 : 1;
}
