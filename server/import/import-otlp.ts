import type Database from 'better-sqlite3';
import { readOtlp } from './read-otlp';
import { sessionOf, toEntries } from './to-entries';
import { writeImported, type WrittenSession } from './write-imported';
import { IMPORTED_WORKSPACE } from '../../shared/api';

export interface ImportResult {
  written: WrittenSession[];
  /** sessions left out because the index has them from their own logs */
  skipped: string[];
  spans: number;
}

/**
 * An OTLP JSON file (one document or JSON lines) into the imports tree, one debug-log folder per session. A
 * session the index already holds from real logs is left out: importing it would be a second copy of the same
 * events (say so; delete it from the index first to replace it).
 */
export function importOtlp(text: string, importsDir: string, db: Database.Database | null): ImportResult {
  const spans = readOtlp(text);
  // A span that names no session belongs to the session its trace's other spans name (JSON lines split a
  // trace over several documents, and only the request's span may carry the session id).
  const byTrace = new Map<string, string>();
  for (const r of spans) if (r.span.traceId && sessionOf(r) !== r.span.traceId && !byTrace.has(r.span.traceId)) byTrace.set(r.span.traceId, sessionOf(r));
  const rootOf = (r: (typeof spans)[number]) => (r.span.traceId && sessionOf(r) === r.span.traceId ? (byTrace.get(r.span.traceId) ?? r.span.traceId) : sessionOf(r));
  const lines = spans.flatMap((r) => toEntries(r, rootOf(r)).map((l) => ({ ...l, root: rootOf(r) })));
  const roots = [...new Set(lines.map((l) => l.root))];
  const existing = new Set<string>();
  if (db) {
    const q = db.prepare('SELECT workspace_dir FROM sessions WHERE id = ?');
    for (const r of roots) {
      const row = q.get(r) as { workspace_dir: string | null } | undefined;
      if (row && !(row.workspace_dir ?? '').endsWith(IMPORTED_WORKSPACE)) existing.add(r);
    }
  }
  const kept = lines.filter((l) => !existing.has(l.root));
  const written = writeImported(importsDir, kept, (l) => (l as (typeof lines)[number]).root);
  return { written, skipped: [...existing], spans: spans.length };
}
