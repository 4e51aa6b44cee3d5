import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openReadDb } from '../db/open';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { sessionDirectory } from './session-directory';

const A = 'aaaaaaaa-1111-4111-8111-111111111111';
const B = 'bbbbbbbb-2222-4222-8222-222222222222';
const msg = (sid: string, ts: number, content: string) => line({ ts, dur: 0, sid, type: 'user_message', name: 'user_message', spanId: `u-${ts}`, status: 'ok', attrs: { content } });

let fx: FixtureDb | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

describe('sessionDirectory', () => {
  it('is kept from one search to the next until something is committed, then starts again', async () => {
    fx = await fixtureDb({ [`${A}/main.jsonl`]: msg(A, 1000, 'first question') });
    const read = openReadDb(fx.dbPath);
    try {
      const dir = sessionDirectory(read);
      dir.loadIds([A]);
      expect(sessionDirectory(read)).toBe(dir);
      expect(sessionDirectory(read).getById(A)?.title).toBe('first question');

      fs.mkdirSync(path.join(fx.logsDir(), B));
      fs.writeFileSync(path.join(fx.logsDir(), B, 'main.jsonl'), msg(B, 2000, 'second question'));
      await fx.reindex(); // committed by the fixture's write connection
      const next = sessionDirectory(read);
      expect(next).not.toBe(dir);
      next.loadIds([A, B]);
      expect([next.getById(A)?.title, next.getById(B)?.title]).toEqual(['first question', 'second question']);
    } finally {
      read.close();
    }
  });

  it('starts a new directory between searches once it holds more than its bound', async () => {
    fx = await fixtureDb({ [`${A}/main.jsonl`]: msg(A, 1000, 'first question'), [`${B}/main.jsonl`]: msg(B, 2000, 'second question') });
    const read = openReadDb(fx.dbPath);
    try {
      const dir = sessionDirectory(read, 1);
      dir.loadIds([A]);
      expect(sessionDirectory(read, 1)).toBe(dir); // 1 session: within the bound
      dir.loadIds([B]);
      expect(dir.size).toBe(2);
      const next = sessionDirectory(read, 1);
      expect(next).not.toBe(dir);
      expect(next.size).toBe(0);
    } finally {
      read.close();
    }
  });
});
