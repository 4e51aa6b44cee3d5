import Database from 'better-sqlite3';
import os from 'node:os';

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
  const sqlite = (db.prepare('SELECT sqlite_version() v').get() as { v: string }).v;
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
