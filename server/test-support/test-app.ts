import type Database from 'better-sqlite3';
import { createBus, type AppContext } from '../app-context';

/** The context a route test gives createApp: this database, idle progress, localhost only, no token, no UI. */
export function testContext(db: Database.Database, dbPath: string): AppContext {
  return {
    db,
    dbPath,
    version: 'test',
    demo: false,
    bus: createBus(),
    status: { progress: { state: 'idle', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 }, roots: [], lastIndexedAt: 0, problems: [], writesPaused: null },
    allowedHosts: ['localhost', '127.0.0.1'],
    token: null,
    webRoot: null,
  };
}
