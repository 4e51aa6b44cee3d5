import type Database from 'better-sqlite3';
import fs from 'node:fs';
import { openReadDb } from '../../server/db/open';
import { planBackfill, sessionKeyOf } from '../../server/ingest/backfill-order';
import type { CorpusManifest } from '../../server/corpus/generate';

export interface NewestWeekProbe {
  sessions: number;
  files: number;
  bytes: number;
  /** true once every event of every file of the newest 7 days is committed (searchable, in spans and triage) */
  done(): boolean;
}

/**
 * "This week is indexed", checked from outside the server: the sessions of the newest 7 days by the files' mtimes
 * (the same definition the indexer orders by, server/ingest/backfill-order.ts), then the committed event count
 * of each of their files against the manifest's. Events, their trigram text and the session refresh are written
 * in one transaction, so a file whose events are all committed is searchable, in the span tree and in triage.
 */
export function newestWeekProbe(manifest: CorpusManifest, dbPath: string): NewestWeekProbe {
  const plan = planBackfill(manifest.files.map((f) => ({ path: f.path, size: f.bytes, mtimeMs: fs.statSync(f.path).mtimeMs })));
  const recent = new Set(plan.files.filter((f) => f.recent).map((f) => f.path));
  const expected = manifest.files.filter((f) => recent.has(f.path)).map((f) => ({ path: f.path, events: f.parseableLines }));
  let db: Database.Database | null = null;
  let pending = expected;
  return {
    sessions: new Set([...recent].map(sessionKeyOf)).size,
    files: recent.size,
    bytes: plan.recent.bytesTotal,
    done() {
      if (pending.length === 0) return true;
      db ??= openReadDb(dbPath);
      const count = db.prepare('SELECT events FROM files WHERE path = ?');
      pending = pending.filter((f) => ((count.get(f.path) as { events: number } | undefined)?.events ?? 0) < f.events);
      if (pending.length === 0) db.close();
      return pending.length === 0;
    },
  };
}
