import type Database from 'better-sqlite3';
import { BEHIND_COUNT_CAP } from '../../shared/not-yet-searchable';
import { dbState } from '../db/db-state';
import { statement } from '../db/statements';
import { indexedThrough, SEARCH_SCHEMA } from './search-db';

/**
 * How far the search file lags the archive, on a connection with it attached: its mark, and how many archived
 * events past the mark cannot be found by search yet (the newest; the search thread is catching up). Health,
 * search results, the CLI and MCP all say this one number.
 */
export function searchLag(db: Database.Database): { indexedThrough: number; eventsBehind: number } {
  const through = markOrZero(db);
  // The count reads every event past the mark (~3 ms for 100,000, ~20 ms for 300,000 on the 1.6 GiB archive), and
  // health asks for it on every call: counted again only when the archive committed or the mark moved.
  const state = dbState(db);
  const known = counted.get(db);
  if (known && known.state === state && known.through === through) return { indexedThrough: through, eventsBehind: known.behind };
  const behind = (statement(db, 'SELECT count(*) n FROM (SELECT 1 FROM main.events WHERE id > ? LIMIT ?)').get(through, BEHIND_COUNT_CAP) as { n: number }).n;
  counted.set(db, { state, through, behind });
  return { indexedThrough: through, eventsBehind: behind };
}

/** The last count per connection, with the archive's state (dbState) and the mark it was counted at. */
const counted = new WeakMap<Database.Database, { state: string; through: number; behind: number }>();

function markOrZero(db: Database.Database): number {
  try {
    return indexedThrough(db, SEARCH_SCHEMA);
  } catch {
    return 0; // not attached (no archive identity yet)
  }
}
