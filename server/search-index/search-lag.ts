import type Database from 'better-sqlite3';
import { BEHIND_COUNT_CAP } from '../../shared/not-yet-searchable';
import { statement } from '../db/statements';
import { indexedThrough, SEARCH_SCHEMA } from './search-db';


/**
 * How far the search file lags the archive, on a connection with it attached: its mark, and how many archived
 * events past the mark cannot be found by search yet (the newest; the search thread is catching up). Health,
 * search results, the CLI and MCP all say this one number.
 */
export function searchLag(db: Database.Database): { indexedThrough: number; eventsBehind: number } {
  const through = markOrZero(db);
  const behind = statement(db, 'SELECT count(*) n FROM (SELECT 1 FROM main.events WHERE id > ? LIMIT ?)').get(through, BEHIND_COUNT_CAP) as { n: number };
  return { indexedThrough: through, eventsBehind: behind.n };
}

function markOrZero(db: Database.Database): number {
  try {
    return indexedThrough(db, SEARCH_SCHEMA);
  } catch {
    return 0; // not attached (no archive identity yet)
  }
}
