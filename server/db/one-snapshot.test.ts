import type Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inOneSnapshot } from './one-snapshot';
import { openReadDb, openWriteDb } from './open';

// A reader and the one writer on the same file, as the server has them: the writer commits between two of the
// reader's statements.

let dir: string;
let writer: Database.Database;
let reader: Database.Database;
const count = () => (reader.prepare('SELECT count(*) FROM t').pluck().get() as number);
const commitOne = () => writer.prepare('INSERT INTO t DEFAULT VALUES').run();

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-snapshot-'));
  writer = openWriteDb(path.join(dir, 'index.db'));
  writer.exec('CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t DEFAULT VALUES; INSERT INTO t DEFAULT VALUES');
  reader = openReadDb(path.join(dir, 'index.db'), { search: false });
});
afterEach(() => {
  reader.close();
  writer.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('inOneSnapshot', () => {
  it('two statements see the same rows although the writer committed between them', () => {
    const bare = [count(), (commitOne(), count())];
    expect(bare).toEqual([2, 3]); // the race it exists for
    const held = inOneSnapshot(reader, () => [count(), (commitOne(), count())]);
    expect(held).toEqual([3, 3]);
    expect(reader.inTransaction).toBe(false);
    expect(count()).toBe(4); // the next read sees the commit
  });

  it('ends the transaction when the read throws, and passes the error on', () => {
    expect(() =>
      inOneSnapshot(reader, () => {
        count();
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(reader.inTransaction).toBe(false);
    expect(() => inOneSnapshot(reader, () => reader.prepare('SELECT * FROM missing').all())).toThrow(/no such table/);
    expect(reader.inTransaction).toBe(false);
  });

  it('nested, the inner read shares the outer snapshot', () => {
    const seen = inOneSnapshot(reader, () => {
      const a = count();
      commitOne();
      return [a, inOneSnapshot(reader, count)];
    });
    expect(seen).toEqual([2, 2]);
    expect(reader.inTransaction).toBe(false);
  });

  it('a read that returns a promise leaves no transaction open for the code after its await', async () => {
    const p = inOneSnapshot(reader, async () => {
      count();
      await new Promise((r) => setTimeout(r, 1));
      return reader.inTransaction;
    });
    expect(reader.inTransaction).toBe(false);
    expect(await p).toBe(false);
  });
});
