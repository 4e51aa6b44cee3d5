import type Database from 'better-sqlite3';

// An archive written before backfill_runs existed holds its first backfill's lines in the backfill's order (whole
// sessions newest first, server/ingest/backfill-order.ts) with nothing saying so: read by descending id, as every id
// outside a run is, a search's budgeted first page took its oldest sessions first (server/db/id-order.ts). What the
// backfill did can be read back from the archive itself: each file's lines went in at once, one file after another,
// so a file's first stretch of ids is where the backfill wrote it; and along a run those stretches are sessions whose
// last event is older and older. Lines written live go the other way (a later id, a later session).

export interface InferredRun {
  lo: number;
  hi: number;
}

/** One session's files as a backfill wrote them: consecutive ids, and the time of its newest event among them. */
interface Block {
  session: string;
  lo: number;
  hi: number;
  ts: number | null;
}

/**
 * The runs of ids an earlier backfill gave, newest session first: the stretches of at least two sessions, in id
 * order, whose last event times never increase (one session out of order, a clock's step, is allowed when the next
 * one continues the run). A few index seeks per file: 0.3 s for the 15,597 files of the 1.6 GiB bench archive, once.
 * Reads the derived `events` table: the caller makes sure it exists.
 */
export function inferBackfillRuns(db: Database.Database): InferredRun[] {
  const files = (
    db
      .prepare('SELECT f.id, coalesce(f.folder_session_id, f.session_id) AS session, f.first_seen AS firstSeen, (SELECT min(l.id) FROM lines l WHERE l.file_id = f.id) AS first FROM files f')
      .all() as { id: number; session: string; firstSeen: number | null; first: number | null }[]
  )
    .filter((f): f is { id: number; session: string; firstSeen: number | null; first: number } => f.first !== null)
    .sort((a, b) => a.first - b.first);
  const fileOf = db.prepare('SELECT file_id FROM lines WHERE id = ?').pluck();
  const idsFrom = db.prepare('SELECT id FROM lines WHERE file_id = ? AND id >= ? ORDER BY id').pluck();
  const eventsDown = db.prepare('SELECT id, ts FROM events WHERE id >= ? AND id <= ? ORDER BY id DESC');

  /** the end of the file's first stretch of consecutive ids: where the backfill stopped writing it, or a writer after it */
  const stretchEnd = (file: { id: number; first: number }, next: number | undefined): number => {
    if (next !== undefined && fileOf.get(next - 1) === file.id) return next - 1;
    let end = file.first;
    for (const id of idsFrom.iterate(file.id, file.first) as IterableIterator<number>) {
      if (id > end + 1) break;
      end = id;
    }
    return end;
  };

  /**
   * What the backfill wrote of a file: its stretch without the lines written after the file was first seen (an
   * event dated later than that: a session resumed once the backfill was over, its lines right after the
   * backfill's last), and the time of the last event it wrote.
   */
  const backfilled = (file: { first: number; firstSeen: number | null }, end: number): { hi: number; ts: number | null } => {
    let hi = end;
    for (const e of eventsDown.iterate(file.first, end) as IterableIterator<{ id: number; ts: number | null }>) {
      if (e.ts === null) continue;
      if (file.firstSeen !== null && e.ts > file.firstSeen) {
        hi = e.id - 1;
        continue;
      }
      return { hi, ts: e.ts };
    }
    return { hi, ts: null };
  };

  const blocks: Block[] = [];
  files.forEach((f, i) => {
    const { hi, ts } = backfilled(f, stretchEnd(f, files[i + 1]?.first));
    if (hi < f.first) return; // every line of it written after it was first seen: live
    const last = blocks[blocks.length - 1];
    if (last && last.session === f.session && last.hi + 1 === f.first) {
      last.hi = hi;
      if (ts !== null && (last.ts === null || ts > last.ts)) last.ts = ts;
    } else {
      blocks.push({ session: f.session, lo: f.first, hi, ts });
    }
  });

  const runs: InferredRun[] = [];
  let start = 0;
  let ref = blocks[0]?.ts ?? null;
  let end = 0;
  const close = () => {
    if (end > start) runs.push({ lo: blocks[start].lo, hi: blocks[end].hi });
  };
  const older = (ts: number | null) => ts !== null && ref !== null && ts <= ref;
  for (let i = 1; i < blocks.length; i++) {
    const b = blocks[i];
    // written right after the run so far, and no newer than its last session: the backfill went on
    const follows = blocks[i - 1].hi + 1 === b.lo;
    if (follows && older(b.ts)) {
      ref = b.ts;
      end = i;
      continue;
    }
    // one session out of order inside a run: the next one continues it
    const next = blocks[i + 1];
    if (follows && next !== undefined && next.lo === b.hi + 1 && older(next.ts)) {
      end = i;
      continue;
    }
    close();
    start = i;
    end = i;
    ref = b.ts;
  }
  close();
  return runs;
}
