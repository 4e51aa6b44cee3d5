import { describe, expect, it } from 'vitest';
import type { Health } from '../../../../shared/api';
import { statusNotices } from './StatusBanners';

const HEALTHY: Health = {
  ok: true,
  version: '0.1.0',
  schemaVersion: 9,
  demo: false,
  dbPath: '/tmp/x.db',
  roots: [{ path: '/home/me/.config/Code', exists: true, error: null }],
  workspaces: 2,
  files: 10,
  companions: 0,
  sessions: 4,
  events: 1234,
  badLines: 0,
  fragments: 0,
  indexLagMs: 0,
  backfill: { state: 'idle', filesDone: 10, filesTotal: 10, bytesDone: 5000, bytesTotal: 5000 },
  problems: [],
  forwarding: null,
  search: { indexedThrough: 0, eventsBehind: 0 },
};

describe('status banners', () => {
  it('none when all is well', () => {
    expect(statusNotices(HEALTHY)).toEqual([]);
  });

  it('a full disk first, then a missing log folder; "no logs" only when nothing else explains the emptiness', () => {
    const reason = 'disk full: /tmp/x.db (database or disk is full). Indexing is paused and retries by itself; free space on that volume (or move the index with --db).';
    const h: Health = {
      ...HEALTHY,
      files: 0,
      roots: [{ path: '/typo', exists: false, error: '/typo does not exist' }],
      problems: [{ fileId: null, path: '/tmp/x.db', lineNo: null, byteOffset: null, kind: 'disk_full', reason, at: 1 }],
    };
    expect(statusNotices(h).map((n) => [n.tone, n.title, n.text])).toEqual([
      ['danger', 'Indexing paused.', reason],
      ['warn', 'A log folder was not found.', '/typo does not exist. Chronoscope keeps watching and indexes it when it can.'],
    ]);
  });

  it('an empty index that is not the demo says how to turn logging on', () => {
    const [n] = statusNotices({ ...HEALTHY, files: 0, roots: [] });
    expect(n).toMatchObject({ tone: 'info', title: 'No Copilot debug logs found.' });
    expect(n.text).toContain('"github.copilot.chat.agentDebugLog.fileLogging.enabled": true');
    expect(statusNotices({ ...HEALTHY, files: 0, demo: true })).toEqual([]);
    expect(statusNotices({ ...HEALTHY, files: 0, backfill: { ...HEALTHY.backfill, state: 'running' } })).toEqual([]);
  });
});
