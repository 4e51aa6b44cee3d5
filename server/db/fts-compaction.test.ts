import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compactionDue, FtsCompaction, GROWTH_SHARE, MIN_GROWTH } from './fts-compaction';
import { logBytes } from './write-ahead-log';
import { until } from '../test-support/until';
import { ftsSegments } from '../test-support/fts-merging';

const open: Database.Database[] = [];
let dir: string | null = null;
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

const matches = (db: Database.Database, t: string, q: string) => db.prepare(`SELECT rowid FROM ${t} WHERE ${t} MATCH ? ORDER BY rowid`).pluck().all(q) as number[];

/** Words that make many distinct trigrams, so that each commit's segment is more than one leaf page. */
const text = (i: number) => `row ${i} wsReconnectLoop retry with backoff ${(i * 7919).toString(36)} ${'x'.repeat(i % 50)} 落盘 ${i % 13}`;

/**
 * A trigram table as a backfill leaves it: a segment per commit, not yet merged (the bench's event_text ends in 44).
 * FTS5's automerge is off here, so that each commit's segment stays one whatever the table's size.
 */
function fragmented(commits: number, rowsPerCommit: number, t = 'docs', file = ':memory:'): Database.Database {
  const db = new Database(file);
  open.push(db);
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  db.exec(`CREATE VIRTUAL TABLE ${t} USING fts5 (text, tokenize = 'trigram', content = '', contentless_delete = 1)`);
  db.exec(`INSERT INTO ${t} (${t}, rank) VALUES ('automerge', 0)`);
  db.exec(`INSERT INTO ${t} (${t}, rank) VALUES ('crisismerge', 1000)`);
  const ins = db.prepare(`INSERT INTO ${t} (rowid, text) VALUES (?, ?)`);
  let id = 0;
  for (let c = 0; c < commits; c++) {
    db.transaction(() => {
      for (let r = 0; r < rowsPerCommit; r++) ins.run(++id, text(id));
    })();
  }
  return db;
}

const noHooks = { canStep: () => true, onDone: () => {}, onError: (err: unknown) => { throw err; } };

describe('compactionDue', () => {
  it('is due once the index grew by MIN_GROWTH lines and by GROWTH_SHARE of what the last merge merged', () => {
    expect(MIN_GROWTH).toBe(2_000);
    expect(GROWTH_SHARE).toBe(0.25);
    expect(compactionDue(1_999, 0)).toBe(false);
    expect(compactionDue(2_000, 0)).toBe(true); // a first backfill
    expect(compactionDue(2_756_385, 0)).toBe(true);
    expect(compactionDue(1_000_000 + 249_999, 1_000_000)).toBe(false); // a restart that caught up a day of logs
    expect(compactionDue(1_250_000, 1_000_000)).toBe(true);
    expect(compactionDue(5_000, 3_500)).toBe(false); // more than a quarter, but below MIN_GROWTH
    expect(compactionDue(100, 100)).toBe(false);
    expect(compactionDue(3_000, 1_000, 1)).toBe(true);
  });
});

describe('FtsCompaction', () => {
  it('merges every segment of each table into one, and every query finds exactly what it found before', () => {
    const db = fragmented(60, 40);
    db.exec(`CREATE VIRTUAL TABLE other USING fts5 (text, tokenize = 'trigram', content = '', contentless_delete = 1)`);
    db.exec(`INSERT INTO other (other, rank) VALUES ('automerge', 0)`);
    db.exec(`INSERT INTO other (other, rank) VALUES ('crisismerge', 1000)`);
    for (let c = 0; c < 20; c++) db.prepare('INSERT INTO other (rowid, text) VALUES (?, ?)').run(c + 1, text(c));
    const before = ftsSegments(db, 'docs');
    expect(before).toBe(60);
    expect(ftsSegments(db, 'other')).toBe(20);
    const queries = ['"reconnect"', '"retry with backoff"', '"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"', '"row 1"', '"落盘 7"'];
    const found = queries.map((q) => matches(db, 'docs', q));
    expect(found[0]).toHaveLength(2400);
    expect(found[2]).toHaveLength(96); // the rows with 48 or 49 x's (i % 50)

    const c = new FtsCompaction(db, ['docs', 'other'], noHooks, 50);
    let steps = 0;
    while (c.step()) steps++;
    expect(steps).toBeGreaterThan(2); // bounded steps, not one 'optimize'
    expect(ftsSegments(db, 'docs')).toBe(1);
    expect(ftsSegments(db, 'other')).toBe(1);
    expect(queries.map((q) => matches(db, 'docs', q))).toEqual(found);
    expect(matches(db, 'other', '"reconnect"')).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(c.step()).toBe(false); // done stays done
  });

  it('finishes the merge it started while live commits add segments between its steps, and loses none of their rows', () => {
    const db = fragmented(50, 40);
    const ins = db.prepare('INSERT INTO docs (rowid, text) VALUES (?, ?)');
    let id = 50 * 40;
    const c = new FtsCompaction(db, ['docs'], noHooks, 2);
    let steps = 0;
    while (c.step()) {
      steps++;
      ins.run(++id, text(id)); // a live group of one row: a new level-0 segment after each step
      expect(steps).toBeLessThan(10_000);
    }
    expect(id).toBeGreaterThan(50 * 40 + 10);
    // the merged one and the last few live ones: once its merge is done, a step merges the live segments too,
    // whenever FTS5's usermerge (4) of them are on a level
    expect(ftsSegments(db, 'docs')).toBeLessThanOrEqual(4);
    expect(matches(db, 'docs', '"reconnect"')).toEqual(Array.from({ length: id }, (_, i) => i + 1));
  });

  it('runs its steps between the thread\'s other work, waits while the writer holds a group open, and says when it is done', async () => {
    const db = fragmented(40, 40);
    let groupOpen = true;
    let done = 0;
    const c = new FtsCompaction(db, ['docs'], { canStep: () => !groupOpen, onDone: () => done++, onError: (err) => { throw err; } }, 20);
    c.start();
    expect(c.active).toBe(true);
    await new Promise((r) => setTimeout(r, 150));
    expect(ftsSegments(db, 'docs')).toBeGreaterThan(1); // no step while the group is open
    groupOpen = false;
    await until(() => done, (n) => n === 1);
    expect(c.active).toBe(false);
    expect(ftsSegments(db, 'docs')).toBe(1);
  });

  it('stops after a failed step, says why, and leaves every row findable', async () => {
    const db = fragmented(40, 40);
    const rows = matches(db, 'docs', '"reconnect"');
    const errors: string[] = [];
    let steps = 0;
    const c = new FtsCompaction(
      db,
      ['docs', 'missing_table'],
      {
        canStep: () => true,
        onDone: () => errors.push('done'),
        onError: (err) => errors.push(err instanceof Error ? err.message : String(err)),
      },
      20,
    );
    const step = c.step.bind(c);
    c.step = () => (steps++, step());
    c.start();
    await until(() => errors.length, (n) => n === 1);
    expect(errors).toEqual(['no such table: missing_table']);
    expect(c.active).toBe(false);
    const after = steps;
    await new Promise((r) => setTimeout(r, 50));
    expect(steps).toBe(after);
    expect(ftsSegments(db, 'docs')).toBe(1);
    expect(matches(db, 'docs', '"reconnect"')).toEqual(rows);
  });

  it('pauses while a reader keeps the write-ahead log from restarting, so that the log stays bounded, and finishes after it', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-fts-merge-'));
    const file = path.join(dir, 'index.db');
    const db = fragmented(60, 40, 'docs', file);
    db.pragma('wal_autocheckpoint = 16'); // 64 KiB: without a reader, the log restarts every few steps
    db.pragma('wal_checkpoint(TRUNCATE)');
    const reader = new Database(file, { readonly: true });
    open.push(reader);
    reader.exec('BEGIN');
    const rows = reader.prepare(`SELECT rowid FROM docs WHERE docs MATCH '"reconnect"'`).pluck().all();
    expect(rows).toHaveLength(2400);
    const limit = 64 * 1024;
    let done = false;
    /** the log's size after each step while the reader held its snapshot */
    const whileRead: number[] = [];
    let reading = true;
    const c = new FtsCompaction(db, ['docs'], { ...noHooks, onDone: () => (done = true) }, 2, limit);
    const step = c.step.bind(c);
    c.step = () => {
      const more = step();
      if (reading) whileRead.push(logBytes(file));
      return more;
    };
    c.start();
    await new Promise((r) => setTimeout(r, 700));
    expect(done).toBe(false); // paused: the reader holds the log
    expect(ftsSegments(db, 'docs')).toBeGreaterThan(1);
    // steps ran until the log passed the bound, and none after: the log grew no further while the reader held it
    expect(whileRead.length).toBeGreaterThan(0);
    expect(whileRead.at(-1)).toBeGreaterThan(limit);
    expect(whileRead.slice(0, -1).every((b) => b <= limit)).toBe(true);
    expect(logBytes(file)).toBe(whileRead.at(-1));
    reading = false;
    reader.exec('COMMIT');
    await until(() => done, (d) => d);
    expect(ftsSegments(db, 'docs')).toBe(1);
    expect(matches(db, 'docs', '"reconnect"')).toEqual(rows);
  });

  it('stop() ends the steps', async () => {
    const db = fragmented(40, 40);
    const c = new FtsCompaction(db, ['docs'], { ...noHooks, onDone: () => expect.unreachable() }, 5);
    c.start();
    await new Promise((r) => setImmediate(r));
    c.stop();
    const left = ftsSegments(db, 'docs');
    await new Promise((r) => setTimeout(r, 50));
    expect(ftsSegments(db, 'docs')).toBe(left);
    expect(left).toBeGreaterThan(1);
  });
});
