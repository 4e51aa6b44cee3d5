import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { plucked, statement } from './statements';

let db: Database.Database;
afterEach(() => db.close());

describe('statement: one prepared statement per connection and SQL text', () => {
  it('serves writes as well as reads, the same object each time (a write has no pluck mode to reset)', () => {
    db = new Database(':memory:');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    const insert = statement(db, 'INSERT INTO t (v) VALUES (?)');
    expect(statement(db, 'INSERT INTO t (v) VALUES (?)')).toBe(insert);
    statement(db, 'INSERT INTO t (v) VALUES (?)').run('a');
    statement(db, 'INSERT INTO t (v) VALUES (?)').run('b');
    statement(db, 'UPDATE t SET v = ? WHERE id = ?').run('c', 2);
    expect(statement(db, 'SELECT v FROM t ORDER BY id').all()).toEqual([{ v: 'a' }, { v: 'c' }]);
  });

  it('gives each caller of a read the mode it asked for, whatever the one before set', () => {
    db = new Database(':memory:');
    db.exec("CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('x')");
    expect(plucked(db, 'SELECT v FROM t').get()).toBe('x');
    expect(statement(db, 'SELECT v FROM t').get()).toEqual({ v: 'x' });
  });
});
