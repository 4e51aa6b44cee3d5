import type Database from 'better-sqlite3';
import fs from 'node:fs';
import { openReadDb } from '../../server/db/open';
import { attachSearch, indexedThrough, SEARCH_SCHEMA } from '../../server/search-index/search-db';
import { planBackfill, sessionKeyOf } from '../../server/ingest/backfill-order';
import type { CorpusManifest } from '../../server/corpus/generate';

export interface NewestWeekProbe {
  sessions: number;
  /** of them, Copilot CLI sessions */
  cliSessions: number;
  files: number;
  bytes: number;
  /** of them, the CLI sessions' events.jsonl and agentHostUsage files */
  cliBytes: number;
  /** "47 sessions (12 Copilot CLI), 1297 log and usage files, 126 MB (9 MB CLI)": the server's progress also counts the companions (workspace.yaml, models.json…) */
  describe(): string;
  /** true once every event of every file of the newest 7 days is committed, in the archive and in search */
  done(): boolean;
}

interface Expected {
  path: string;
  /** the events its files row must count; null for a companion, which must only be stored */
  events: number | null;
}

/**
 * "This week is indexed", checked from outside the server: the sessions of the newest 7 days by the files' mtimes
 * (the same definition the indexer orders by, server/ingest/backfill-order.ts, over the same files: the debug logs
 * and the Copilot CLI's events.jsonl and agentHostUsage files, since a CLI session written last moves the week),
 * then the committed event count of each of their logs against the manifest's, and each usage file stored.
 * Events and the session refresh are written in one transaction (in the span tree and triage once committed);
 * their trigram text is committed apart, by the search thread, so a log counts only once the search file's mark
 * has reached its last line too (server/search-index/search-db.ts).
 */
export function newestWeekProbe(manifest: CorpusManifest, dbPath: string): NewestWeekProbe {
  const all = new Map<string, Expected>();
  for (const f of manifest.files) all.set(f.path, { path: f.path, events: f.parseableLines });
  const cliFiles = new Set<string>();
  for (const s of manifest.cli.sessions) {
    all.set(s.eventsFile, { path: s.eventsFile, events: s.events });
    cliFiles.add(s.eventsFile);
    if (s.usageFile !== null) {
      all.set(s.usageFile, { path: s.usageFile, events: null });
      cliFiles.add(s.usageFile);
    }
  }
  const plan = planBackfill([...all.keys()].map((p) => ({ path: p, size: fs.statSync(p).size, mtimeMs: fs.statSync(p).mtimeMs })));
  const recent = plan.files.filter((f) => f.recent);
  const sessions = new Set(recent.map((f) => sessionKeyOf(f.path)));
  const cliSessions = new Set(recent.filter((f) => cliFiles.has(f.path)).map((f) => sessionKeyOf(f.path)));
  const cliBytes = recent.filter((f) => cliFiles.has(f.path)).reduce((n, f) => n + f.size, 0);
  let pending = recent.map((f) => all.get(f.path)!); // in plan order: the order the server reads them
  let db: Database.Database | null = null;
  const mb = (b: number) => `${Math.round(b / 1e6)} MB`;
  return {
    sessions: sessions.size,
    cliSessions: cliSessions.size,
    files: recent.length,
    bytes: plan.recent.bytesTotal,
    cliBytes,
    describe: () => `${sessions.size} sessions (${cliSessions.size} Copilot CLI), ${recent.length} log and usage files, ${mb(plan.recent.bytesTotal)} (${mb(cliBytes)} CLI)`,
    done() {
      if (pending.length === 0) return true;
      db ??= openReadDb(dbPath);
      attachSearch(db, dbPath); // the search file may have been created since this connection opened
      const count = db.prepare('SELECT events, (SELECT max(l.id) FROM main.lines l WHERE l.file_id = files.id) last FROM files WHERE path = ?');
      const stored = db.prepare('SELECT 1 FROM companions WHERE path = ?');
      const searched = indexedThrough(db, SEARCH_SCHEMA);
      const unfinished = (f: Expected) => {
        if (f.events === null) return stored.get(f.path) === undefined;
        const row = count.get(f.path) as { events: number; last: number | null } | undefined;
        return (row?.events ?? 0) < f.events || (row?.last ?? 0) > searched;
      };
      // In the backfill's order, up to the first file not done: a poll costs a query or two, not one per file of
      // the week (thousands, every 50 ms, on the core the server's threads share).
      const first = pending.findIndex(unfinished);
      pending = first < 0 ? [] : pending.slice(first);
      if (pending.length === 0) db.close();
      return pending.length === 0;
    },
  };
}
