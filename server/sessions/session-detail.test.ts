import { afterEach, describe, expect, it } from 'vitest';
import { MAX_PAGE_SIZE } from '../../shared/api';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { getSessionDetail } from './session-detail';

let fx: FixtureDb | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

const ev = (sid: string) => line({ ts: 1775000000000, dur: 5, sid, type: 'tool_call', name: 'read_file', spanId: `${sid}-t`, status: 'ok', attrs: { args: '{}' } });

describe('getSessionDetail', () => {
  it('stops every list at MAX_PAGE_SIZE and still counts all the children', async () => {
    const files: Record<string, string> = { 'p/main.jsonl': ev('p') };
    for (let i = 0; i < MAX_PAGE_SIZE + 10; i++) files[`p/title-c${i}.jsonl`] = ev(`c${i}`);
    fx = await fixtureDb(files);
    const d = getSessionDetail(fx.db, 'p');
    expect([d?.children.length, d?.childCount]).toEqual([MAX_PAGE_SIZE, MAX_PAGE_SIZE + 10]);
  });

  it('counts events of every type, those named like Object.prototype members too', async () => {
    const typed = (type: string, n: number) => line({ ts: 1775000000000 + n, dur: 0, sid: 'q', type, name: type, spanId: `000000000000000${n}`, status: 'ok', attrs: {} });
    fx = await fixtureDb({ 'q/main.jsonl': typed('user_message', 1) + typed('__proto__', 2) + typed('__proto__', 3) + typed('constructor', 4) });
    const counts = getSessionDetail(fx.db, 'q')?.countsByType;
    expect(JSON.stringify(counts)).toBe('{"__proto__":2,"constructor":1,"user_message":1}');
  });
});
