import Database from 'better-sqlite3';
import os from 'node:os';
// @ts-expect-error: a plain ES module of the install step, without types
import { fts5HashPatched } from '../../scripts/fts5-hash-patch.mjs';

export interface MachineFacts {
  cores: number;
  cpu: string;
  memoryGiB: number;
  node: string;
  sqlite: string;
  platform: string;
  loadAverage: number[];
}

export function machineFacts(): MachineFacts {
  const db = new Database(':memory:');
  const version = (db.prepare('SELECT sqlite_version() v').get() as { v: string }).v;
  // the numbers depend on it: FTS5's term hash, patched at install (scripts/patch-sqlite.mjs), or stock
  const sqlite = `${version} (${fts5HashPatched() ? "FTS5's term hash patched by scripts/patch-sqlite.mjs" : "stock: scripts/patch-sqlite.mjs's FTS5 hash patch not applied"})`;
  db.close();
  return {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    sqlite,
    platform: `${os.platform()} ${os.release()}`,
    loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
}
