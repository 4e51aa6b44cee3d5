import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ensureSchema } from './schema';

describe('schema', () => {
  it('gives the trigram index a 16 MB pending-terms hash (fewer, larger segments during a backfill)', () => {
    const db = new Database(':memory:');
    ensureSchema(db);
    expect(db.prepare("SELECT v FROM event_text_config WHERE k = 'hashsize'").get()).toEqual({ v: 16 * 1024 * 1024 });
  });

  it('indexes files by session: every refresh of a session reads its files', () => {
    const db = new Database(':memory:');
    ensureSchema(db);
    const plan = db.prepare("EXPLAIN QUERY PLAN SELECT count(*) FROM files WHERE session_id = 'x'").all() as { detail: string }[];
    expect(plan.map((p) => p.detail)).toEqual(['SEARCH files USING COVERING INDEX files_session (session_id=?)']);
  });
});
