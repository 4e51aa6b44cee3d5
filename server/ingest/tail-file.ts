import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { rawLines } from '../db/raw-lines';
import { processLine, LINE_BAD, LINE_FRAGMENT, type ProcessedLine } from './process-line';
import { readLines } from './read-lines';
import type { FileRow, IngestStore } from './store';

/** How many bytes of a file's head identify it; a different head means the file was rewritten. */
const HEAD_BYTES = 1024;
/** Bytes of complete lines read and parsed at a time: bounds memory (4 MB batches peaked at 363 MB RSS on one 118 MB file, 1 MB at 230 MB). */
export const BATCH_BYTES = 1024 * 1024;

export interface TailOutcome {
  events: number;
  sessionIds: Set<string>;
  /** true when the file has more complete lines to read (the caller re-queues it) */
  more: boolean;
  rewritten: boolean;
  bytes: number;
}

function hashBytes(b: Uint8Array): number {
  return crypto.createHash('md5').update(b).digest().readUIntBE(0, 6);
}

function headHash(fd: number, size: number): string {
  const len = Math.min(size, HEAD_BYTES);
  const buf = Buffer.alloc(len);
  if (len > 0) fs.readSync(fd, buf, 0, len, 0);
  return `${len}:${hashBytes(buf)}`;
}

/** The head hash over the length recorded with it, to compare a file against what was read before. */
function headHashAt(fd: number, recorded: string | null, size: number): string | null {
  if (recorded === null) return null;
  const len = Number(recorded.split(':')[0]);
  if (len > size) return null;
  const buf = Buffer.alloc(len);
  if (len > 0) fs.readSync(fd, buf, 0, len, 0);
  return `${len}:${hashBytes(buf)}`;
}

export type FileIdentity = Pick<FileRow, 'path' | 'workspace_dir' | 'folder_session_id' | 'session_id' | 'kind' | 'label'>;

/**
 * Brings the archive up to date with one log file. The usual case appends complete lines from the stored
 * offset. A file that shrank, changed inode or changed head was rewritten (Copilot's size cap keeps the newest
 * 60%, FORMAT §4.2–4.3): it is re-read from the start and reconciled by line content inside one transaction:
 * lines already archived are not written again, new ones are added, dropped ones stay, and an unparseable first
 * line is a fragment of a cut line.
 */
export function tailFile(store: IngestStore, identity: FileIdentity, maxBytes = BATCH_BYTES * 4): TailOutcome {
  const outcome: TailOutcome = { events: 0, sessionIds: new Set(), more: false, rewritten: false, bytes: 0 };
  let fd: number;
  try {
    fd = fs.openSync(identity.path, 'r');
  } catch (err) {
    const row = store.fileByPath(identity.path);
    const code = (err as NodeJS.ErrnoException).code;
    if (row && (code === 'ENOENT' || code === 'ENOTDIR')) store.markFileDeleted(row.id, row.session_id);
    else if (row) store.setFileError(row.id, `cannot open: ${code ?? String(err)}`);
    throw err;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw Object.assign(new Error(`${identity.path} is not a regular file`), { code: 'EISDIR' });
    let row = store.fileByPath(identity.path) ?? store.createFile(identity);
    const size = stat.size;
    const sameFile = row.ino === null || (row.ino === stat.ino && row.dev === stat.dev);
    const headNow = headHashAt(fd, row.head_hash, size);
    const rewritten =
      row.ino !== null &&
      (!sameFile || size < row.offset || headNow !== row.head_hash || (row.deleted_at !== null && row.offset > 0));
    if (rewritten) {
      outcome.rewritten = true;
      reconcileRewrite(store, row, fd, stat, outcome);
      return outcome;
    }
    if (size === row.offset && row.ino !== null) return outcome;
    let offset = row.offset;
    let nextLine = row.next_line;
    while (outcome.bytes < maxBytes) {
      const r = readLines(fd, offset, size, BATCH_BYTES);
      if (r.lines.length === 0) break;
      const processed = r.lines.map(processLine);
      const lineNos = processed.map((_, i) => nextLine + i);
      row = adoptSessionId(store, row, processed);
      const w = store.writeBatch(row, processed, progressOf(fd, stat, r.nextOffset, row.generation, nextLine + processed.length), lineNos);
      outcome.events += w.events;
      for (const s of w.sessionIds) outcome.sessionIds.add(s);
      outcome.bytes += r.nextOffset - offset;
      offset = r.nextOffset;
      nextLine += processed.length;
      if (r.eof) break;
    }
    if (row.ino === null && outcome.bytes === 0) {
      // An empty (or partial-only) new file: record its identity so a later rewrite is recognised.
      store.writeBatch(row, [], progressOf(fd, stat, 0, row.generation, row.next_line), []);
    }
    outcome.more = offset < size && readLinesWouldProgress(fd, offset, size);
    return outcome;
  } finally {
    fs.closeSync(fd);
  }
}

function readLinesWouldProgress(fd: number, offset: number, size: number): boolean {
  return readLines(fd, offset, size, 1).lines.length > 0;
}

function progressOf(fd: number, stat: fs.Stats, offset: number, generation: number, nextLine: number) {
  return { dev: stat.dev, ino: stat.ino, size: stat.size, offset, headHash: headHash(fd, stat.size), generation, nextLine };
}

/**
 * A child file's session is the `sid` its lines carry; the name only gives a guess (labels may end in
 * something that looks like an id). Adopted on the first batch, before anything of the file is written.
 */
function adoptSessionId(store: IngestStore, row: FileRow, processed: ProcessedLine[]): FileRow {
  if (row.offset !== 0 || row.generation !== 0 || row.kind === 'main') return row;
  const sid = processed.find((p) => p.event?.sid)?.event?.sid;
  if (!sid || sid === row.session_id) return row;
  // The name is `<label>-<sid>.jsonl`: with the real id known, the label is what precedes it.
  const base = path.basename(row.path, '.jsonl');
  const label = row.kind === 'child' && base.endsWith(`-${sid}`) ? base.slice(0, -(sid.length + 1)) : row.label;
  store.db.prepare('UPDATE files SET session_id = ?, label = ? WHERE id = ?').run(sid, label, row.id);
  return { ...row, session_id: sid, label };
}

function reconcileRewrite(store: IngestStore, row: FileRow, fd: number, stat: fs.Stats, outcome: TailOutcome): void {
  const db = store.db;
  // Multiset of what is archived for this file: identical lines may legitimately repeat.
  const archived = new Map<number, number>();
  const raw = rawLines(db);
  const ids = db.prepare('SELECT id FROM lines WHERE file_id = ? AND kind != ? ORDER BY id').pluck().all(row.id, LINE_FRAGMENT) as number[];
  for (const id of ids) {
    const bytes = raw.bytes(id);
    if (!bytes) continue;
    const h = hashBytes(bytes);
    archived.set(h, (archived.get(h) ?? 0) + 1);
  }
  const generation = row.generation + 1;
  db.transaction(() => {
    let offset = 0;
    let nextLine = 1;
    let first = true;
    for (;;) {
      const r = readLines(fd, offset, stat.size, BATCH_BYTES);
      const fresh: ProcessedLine[] = [];
      const lineNos: number[] = [];
      r.lines.forEach((line, i) => {
        const h = hashBytes(line.bytes);
        const seen = archived.get(h) ?? 0;
        const isFirst = first && i === 0;
        if (seen > 0) {
          archived.set(h, seen - 1);
          return;
        }
        let p = processLine(line);
        if (isFirst && p.kind === LINE_BAD) p = { ...p, kind: LINE_FRAGMENT, reason: `first line cut by a rewrite (${p.reason})` };
        fresh.push(p);
        lineNos.push(nextLine + i);
      });
      first = false;
      const w = store.writeBatch(row, fresh, progressOf(fd, stat, r.nextOffset, generation, nextLine + r.lines.length), lineNos);
      outcome.events += w.events;
      for (const s of w.sessionIds) outcome.sessionIds.add(s);
      outcome.bytes += r.nextOffset - offset;
      offset = r.nextOffset;
      nextLine += r.lines.length;
      if (r.eof || r.lines.length === 0) break;
    }
  })();
}
