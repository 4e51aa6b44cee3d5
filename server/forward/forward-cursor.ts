import fs from 'node:fs';

/**
 * How far forwarding got, per endpoint: the last events.id (= lines.id, stable across rebuilds of the derived
 * tables) the collector accepted. Kept in a file beside the index, written and renamed into place right after
 * each accepted request, not in the index itself: the ingest worker holds a write transaction open for seconds
 * during a backfill, and a cursor row written inside it would be lost with it by a kill (every request since the
 * group began sent again). The file names the index file it belongs to (device and inode): an index moved aside
 * and rebuilt numbers its events anew, so its cursor starts again at 0 (the spans' ids are derived, not
 * numbered, so a collector keying on them keeps one copy).
 */
export interface CursorState {
  eventId: number;
  sentSpans: number;
}

interface CursorFile {
  index: string;
  endpoints: Record<string, CursorState>;
}

export function cursorPath(dbPath: string): string {
  return `${dbPath}.forward.json`;
}

function indexIdentity(dbPath: string): string {
  const st = fs.statSync(dbPath);
  return `${st.dev}:${st.ino}`;
}

export function readCursor(dbPath: string, endpoint: string): CursorState {
  try {
    const f = JSON.parse(fs.readFileSync(cursorPath(dbPath), 'utf8')) as CursorFile;
    if (f.index !== indexIdentity(dbPath)) return { eventId: 0, sentSpans: 0 };
    const c = f.endpoints?.[endpoint];
    return c && Number.isSafeInteger(c.eventId) ? { eventId: c.eventId, sentSpans: c.sentSpans ?? 0 } : { eventId: 0, sentSpans: 0 };
  } catch {
    return { eventId: 0, sentSpans: 0 };
  }
}

export function writeCursor(dbPath: string, endpoint: string, state: CursorState): void {
  const file = cursorPath(dbPath);
  let f: CursorFile = { index: indexIdentity(dbPath), endpoints: {} };
  try {
    const old = JSON.parse(fs.readFileSync(file, 'utf8')) as CursorFile;
    if (old.index === f.index) f = { ...old, endpoints: { ...old.endpoints } };
  } catch {
    /* none yet */
  }
  f.endpoints[endpoint] = state;
  const tmp = `${file}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeSync(fd, JSON.stringify(f));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}
