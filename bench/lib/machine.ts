import Database from 'better-sqlite3';
import os from 'node:os';
// @ts-expect-error: a plain ES module of the install step, without types
import { patchesInstalled, PATCHES } from '../../scripts/sqlite-patches.mjs';

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
  // the numbers depend on it: FTS5's term hash and malloc_trim, patched at install (scripts/patch-sqlite.mjs), or stock
  const have = patchesInstalled() as string[];
  const patches = (PATCHES as { file: string; what: string }[]).map((p) => (have.includes(p.file) ? p.what : `not ${p.what}`));
  const sqlite = `${version} (${have.length > 0 ? `patched by scripts/patch-sqlite.mjs: ${patches.join(', ')}` : 'stock: scripts/patch-sqlite.mjs did not patch it'})`;
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
