import type Database from 'better-sqlite3';
import { lineFormatOf, processLine, LINE_EVENT } from '../ingest/process-line';
import { rawLines } from './raw-lines';
import { inferPendingBackfillRuns, recreateDerived, setMeta } from './schema';
import { indexCompanion } from '../ingest/companions';
import { makeSessionRefresher } from '../ingest/refresh-session';
import type { FileRow, IngestStore } from '../ingest/store';

/**
 * Refills the derived tables from the archive after ensureSchema dropped them (SCHEMA_VERSION changed or the
 * derived tables were lost): every archived event line is parsed again and derived exactly as at ingest.
 */
export function rebuildDerived(db: Database.Database, store: IngestStore, onProgress?: (done: number, total: number) => void): number {
  // A rebuild interrupted by a crash left some rows: start from empty tables, or they would be derived twice.
  if (db.prepare('SELECT 1 FROM events LIMIT 1').get() !== undefined) recreateDerived(db);
  store.resetCaches();
  const total = (db.prepare('SELECT count(*) n FROM lines WHERE kind = ?').get(LINE_EVENT) as { n: number }).n;
  const files = db.prepare('SELECT * FROM files ORDER BY id').all() as FileRow[];
  const linesOf = db.prepare('SELECT id, byte_offset FROM lines WHERE file_id = ? AND kind = ? ORDER BY id');
  const raw = rawLines(db);
  const markBad = db.prepare('UPDATE lines SET kind = ?, reason = ? WHERE id = ?');
  const eventBecameBad = db.prepare('UPDATE files SET events = events - 1, bad_lines = bad_lines + 1 WHERE id = ?');
  let done = 0;
  for (const file of files) {
    const rows = linesOf.all(file.id, LINE_EVENT) as { id: number; byte_offset: number }[];
    db.transaction(() => {
      for (const r of rows) {
        const bytes = raw.bytes(r.id);
        if (!bytes) continue;
        const p = processLine({ bytes, byteOffset: r.byte_offset, tooLong: false }, lineFormatOf(file.kind));
        if (p.kind === LINE_EVENT) store.rederive(r.id, file, p);
        else {
          // The rules of what is an entry changed since the line was archived (an object without a type used to be
          // one): it is a bad line now, in the archive's counts too, so the file's events stay what jq counts.
          markBad.run(p.kind, p.reason, r.id);
          eventBecameBad.run(file.id);
        }
        done++;
      }
      store.ensureSession(store.seedFor(file));
      store.dirty.add(file.session_id);
    })();
    onProgress?.(done, total);
  }
  const companions = db.prepare("SELECT id, kind, content FROM companions WHERE kind IN ('system_prompt', 'tools')").all() as { id: number; kind: string; content: string | null }[];
  db.transaction(() => {
    for (const c of companions) indexCompanion(db, c.id, c.kind, c.content);
  })();
  const refresh = makeSessionRefresher(db, (id) => store.knownTotals(id));
  db.transaction(() => {
    for (const id of store.dirty) refresh(id);
  })();
  store.dirty.clear();
  setMeta(db, 'derived_state', 'ready');
  inferPendingBackfillRuns(db);
  return done;
}
