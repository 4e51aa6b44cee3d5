import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runConsoleQuery } from './run-console-query';

// A console query naming a table or column that is not there: SQLite's message, and the name meant when one is
// close (a letter off, a plural), so that the fix is in the error and not in the schema pane.
const db = new Database(':memory:');
db.exec(`CREATE TABLE sessions (id TEXT PRIMARY KEY, title TEXT, repository TEXT);
  CREATE TABLE events (id INTEGER PRIMARY KEY, session_num INTEGER, type TEXT, name TEXT, dur INTEGER);
  CREATE TABLE session_files (id INTEGER PRIMARY KEY, file_path TEXT);`);
afterAll(() => db.close());
const error = (sql: string): string => {
  try {
    runConsoleQuery(db, sql);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('ran');
};

describe('errors that name a table or column', () => {
  it('suggest the nearest name', () => {
    expect(error('SELECT * FROM event')).toBe('no such table: event (did you mean events?)');
    expect(error('SELECT nme FROM events')).toBe('no such column: nme (did you mean name?)');
    expect(error('SELECT e.durr FROM events e')).toBe('no such column: e.durr (did you mean dur?)');
    expect(error('SELECT * FROM sesion_files')).toBe('no such table: sesion_files (did you mean session_files?)');
  });

  it('list the tables when no name is close, and leave every other error as SQLite wrote it', () => {
    expect(error('SELECT * FROM spans')).toBe('no such table: spans (the tables: events, session_files, sessions)');
    expect(error('SELECT zzzz FROM events')).toBe('no such column: zzzz');
    expect(error('SELECT count( FROM events')).toBe('near "FROM": syntax error');
  });
});
